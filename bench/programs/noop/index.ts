// Baseline of bench/provider.ts and bench/scale.ts: one dynamic resource per name in the `names`
// config, whose provider does nothing (no API, no network). What the Pulumi engine and the
// dynamic-provider plugin cost by themselves, for the same number of resources as the Source stack.
// `touched`: the name of one resource whose input changes, for an up with one update.
import * as pulumi from "@pulumi/pulumi";

const nothing: pulumi.dynamic.ResourceProvider = {
  async create(inputs: { key: string }) {
    return { id: String(inputs.key), outs: inputs };
  },
  async update(_id: string, _olds: unknown, news: { key: string }) {
    return { outs: news };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: { key: string; touched?: boolean }) {
    super(nothing, name, props);
  }
}

const config = new pulumi.Config();
const names = config.requireObject<string[]>("names");
const touched = config.get("touched");
for (const name of names) new Noop(name, name === touched ? { key: name, touched: true } : { key: name });
