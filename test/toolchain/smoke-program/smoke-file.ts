// A dynamic resource whose provider writes a file: the smallest real thing a Pulumi stack can manage.
import * as pulumi from "@pulumi/pulumi";

export interface FileArgs {
  path: string;
  content: string;
}

// Serialized into the dynamic-provider plugin: it may only use what it requires itself.
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
const fileProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: FileArgs) {
    require("node:fs").writeFileSync(inputs.path, inputs.content);
    return { id: inputs.path, outs: inputs };
  },
  async read(id: string, props: FileArgs) {
    const content: string = require("node:fs").readFileSync(id, "utf8");
    return { id, props: { ...props, content } };
  },
  async delete(id: string) {
    require("node:fs").rmSync(id, { force: true });
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

export class SmokeFile extends pulumi.dynamic.Resource {
  constructor(name: string, args: FileArgs) {
    super(fileProvider, name, args);
  }
}
