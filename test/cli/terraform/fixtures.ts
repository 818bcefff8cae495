// The Terraform states of the tests, written by hand in each community provider's documented shape
// (teamjourney-imgix.tfstate: SDKv2, `deployment` a list of one, `timeouts` in the attributes and
// in SDKv2's private data; instawork-imgixyz.tfstate: Plugin Framework, `deployment` an object, as
// OpenTofu writes it): the providers cannot be installed here, so no `terraform apply` can make them.
// Ids and secrets are `"@name"` placeholders, filled in with the Sources a test made. countState
// makes states of any size, for the migration at scale (the tests' and bench/terraform-import.ts).
import * as fs from "node:fs";
import * as path from "node:path";

export function fixtureState(file: string, values: Record<string, string>): string {
  return fs.readFileSync(path.join(__dirname, file), "utf8").replace(/"@([a-z0-9-]+)"/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`${file}: no value for ${whole}`);
    return JSON.stringify(values[key]);
  });
}

/** The S3 Source instance i of countState, as made through the API: subdomain `<label>-<i>`. */
export function countSource(label: string, i: number, secret: string) {
  return {
    name: `Media ${i}`,
    deployment: {
      type: "s3" as const,
      service_subdomains: [`${label}-${i}`],
      s3_bucket: label,
      s3_access_key: "AKIATFCOUNT",
      s3_secret_key: secret,
    },
  };
}

/**
 * A state of one `imgix_source.media` resource with `count` = ids.length, as teamjourney/imgix's
 * SDKv2 writes it: instance i is the S3 Source ids[i] (subdomain `<label>-<i>`), its secret secretOf(i).
 */
export function countState(label: string, sourceIds: readonly string[], secretOf: (i: number) => string): string {
  const instance = (id: string, i: number) => {
    // teamjourney/imgix names the host names `imgix_subdomains`.
    const { service_subdomains: imgix_subdomains, ...deployment } = countSource(label, i, secretOf(i)).deployment;
    return {
      index_key: i,
      schema_version: 0,
      attributes: {
        id,
        name: `Media ${i}`,
        enabled: true,
        type: "sources",
        deployment_status: "deployed",
        wait_for_deployed: true,
        deployment: [{ ...deployment, imgix_subdomains }],
      },
      sensitive_attributes: [],
    };
  };
  return JSON.stringify({
    version: 4,
    terraform_version: "1.9.8",
    resources: [
      {
        mode: "managed",
        type: "imgix_source",
        name: "media",
        provider: 'provider["registry.terraform.io/teamjourney/imgix"]',
        instances: sourceIds.map(instance),
      },
    ],
  });
}
