// Baseline of bench/provider.ts and bench/scale.ts: one dynamic resource per name in the `names`
// config, whose provider does nothing (no API, no network). What the Pulumi engine and the
// dynamic-provider plugin cost by themselves, for the same number of resources as the Source stack.
// `touched`: the name of one resource whose input changes, for an up with one update.
//
// `carried` instead (bench/scale.ts, BENCH_SAME_DATA=1): a file of resources, each with the
// properties it carries (a Source's state, from the stack's export) and the names of those that are
// secrets. Secret values cannot be exported in plain text; each is `{}` here (the bench's Sources
// declare no write-only field, so theirs are `{}` too). With `packed`, they are carried in two
// properties (one object, one secret) instead of twelve.
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";

interface Carried {
  name: string;
  props: Record<string, unknown>;
  secrets: string[];
}

const nothing: pulumi.dynamic.ResourceProvider = {
  async create(inputs: { key: string }) {
    return { id: String(inputs.key), outs: inputs };
  },
  async update(_id: string, _olds: unknown, news: { key: string }) {
    return { outs: news };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: { key: string } & Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super(nothing, name, props, opts);
  }
}

const config = new pulumi.Config();
const carried = config.get("carried");
if (carried) {
  // `packed`: the same data in one object property and one secret property, to tell the cost of
  // a resource's data from the cost of its number of properties.
  const packed = config.getBoolean("packed") === true;
  for (const { name, props, secrets } of JSON.parse(fs.readFileSync(carried, "utf8")) as Carried[]) {
    const secretProps = Object.fromEntries(secrets.map((key) => [key, pulumi.secret({})]));
    if (packed) new Noop(name, { key: name, state: props, secrets: pulumi.secret(secretProps) }, { additionalSecretOutputs: ["secrets"] });
    else new Noop(name, { key: name, ...props, ...secretProps }, { additionalSecretOutputs: secrets });
  }
} else {
  const names = config.requireObject<string[]>("names");
  const touched = config.get("touched");
  for (const name of names) new Noop(name, name === touched ? { key: name, touched: true } : { key: name });
}
