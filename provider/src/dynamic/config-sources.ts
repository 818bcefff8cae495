// Sources declared in a stack's configuration rather than in code (the root project's stacks per
// environment, and what `asset-delivery import` writes):
//   <project>:sources        name -> Source arguments, camelCase as in `new Source(...)`
//   <project>:sourceSecrets  (secret) name -> write-only field -> value, e.g. set with
//                            pulumi config set --secret --path 'sourceSecrets.assets.s3SecretKey' <key>
// A write-only field declared in neither stays as stored on the server (adoption keeps it).
import * as pulumi from "@pulumi/pulumi";
import { Source } from "./source";
import { writeOnlyFieldNames } from "../pulumi-names/source";
import type { SourceArgs } from "./source-types";

type SourceSecrets = Record<string, Record<string, string>>;

/** One Source per entry of `sources`, by name; `required`: a stack without the key fails, instead of declaring none. */
export function sourcesFromConfig(
  config: pulumi.Config = new pulumi.Config(),
  { required = false }: { required?: boolean } = {},
): Record<string, Source> {
  const declared = required
    ? config.requireObject<Record<string, SourceArgs>>("sources")
    : (config.getObject<Record<string, SourceArgs>>("sources") ?? {});
  const sourceSecrets = config.getSecretObject<SourceSecrets>("sourceSecrets") ?? pulumi.secret<SourceSecrets>({});
  return Object.fromEntries(
    Object.entries(declared).map(([name, args]) => {
      // Each write-only field of the type may come from sourceSecrets; the resource keeps them secret.
      const secrets = Object.fromEntries(
        writeOnlyFieldNames(args.deployment.type)
          .filter((field) => !(field in args.deployment))
          .map((field) => [field, sourceSecrets.apply((all) => all[name]?.[field])]),
      );
      return [name, new Source(name, { ...args, deployment: { ...args.deployment, ...secrets } })];
    }),
  );
}
