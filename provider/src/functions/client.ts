// Data-source functions run in the program's own process (dynamic providers have no invokes): each
// call connects with the provider's settings (core/settings.ts: the stack's config, else the
// environment) and closes the connection after.
import * as pulumi from "@pulumi/pulumi";
import type { AssetDeliveryClient } from "@asset-delivery/sdk";
import { connect, resolveSettings } from "../core";
import { PULUMI_INSTRUCTIONS } from "../pulumi-names/instructions";
import { pulumiConfigReader } from "../pulumi-names/config-keys";

export async function withClient<T>(use: (client: AssetDeliveryClient) => Promise<T>): Promise<T> {
  // runtime.getConfig reads a secret's value without the warning Config.get gives: it never leaves this call.
  const connection = connect(
    resolveSettings(
      pulumiConfigReader((key) => pulumi.runtime.getConfig(key)),
      process.env,
      PULUMI_INSTRUCTIONS,
    ),
  );
  try {
    return await use(connection.client);
  } finally {
    await connection.close();
  }
}

/** Arguments of an `...Output` form: each one may be an input. */
export type InputArgs<A> = pulumi.Input<{ [K in keyof A]: pulumi.Input<A[K]> }>;

/** The `...Output` form of a function: inputs in, an Output out, secret when `isSecret` says so. */
export function outputForm<A, R>(fn: (args: A) => Promise<R>, isSecret: (result: R) => boolean = () => false) {
  return (args: InputArgs<A>): pulumi.Output<R> =>
    pulumi.output(args).apply(async (resolved) => {
      const result = await fn(resolved as A);
      return isSecret(result) ? pulumi.secret(result) : result;
    }) as pulumi.Output<R>;
}
