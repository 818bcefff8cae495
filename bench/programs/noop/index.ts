// Baseline of bench/provider.ts: one dynamic resource per name in the `names` config, whose
// provider does nothing (no API, no network). What the Pulumi engine and the dynamic-provider
// plugin cost by themselves, for the same number of resources as the Source stack.
import * as pulumi from "@pulumi/pulumi";

const nothing: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: String(inputs.key), outs: inputs };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: { key: string }) {
    super(nothing, name, props);
  }
}

const names = new pulumi.Config().requireObject<string[]>("names");
for (const name of names) new Noop(name, { key: name });
