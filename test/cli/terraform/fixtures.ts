// The Terraform states of the tests, written by hand in each community provider's documented shape
// (teamjourney-imgix.tfstate: SDKv2, `deployment` a list of one, `timeouts` in the attributes and
// in SDKv2's private data; instawork-imgixyz.tfstate: Plugin Framework, `deployment` an object, as
// OpenTofu writes it): the providers cannot be installed here, so no `terraform apply` can make them.
// Ids and secrets are `"@name"` placeholders, filled in with the Sources a test made.
import * as fs from "node:fs";
import * as path from "node:path";

export function fixtureState(file: string, values: Record<string, string>): string {
  return fs.readFileSync(path.join(__dirname, file), "utf8").replace(/"@([a-z0-9-]+)"/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`${file}: no value for ${whole}`);
    return JSON.stringify(values[key]);
  });
}
