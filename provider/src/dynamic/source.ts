// The Source resource: `new Source(name, args, opts)`. Write-only deployment fields (origin
// secret keys, passwords, handshakes, signing keys, SAS strings, upload credentials) are moved into
// their own input, `deploymentSecrets`, which is always secret, so that neither the state's inputs
// nor its outputs ever hold them in plain text, whatever the program passed (shape.ts puts them
// back where they live for the provider core). The secret attributes of the sdk's field table (the
// secure-URL token) are secret outputs.
import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_KEY, SERIALIZED_PROVIDER, SOURCE_RESOURCE_TYPE } from "./serialized-provider";
import type { SourceArgs, SourceDeployment, SourceReadOnlyOutputs } from "./source-types";
import { DYNAMIC_SECRETS_KEY, isPlainObject } from "@asset-delivery/sdk";
import { providerOptions } from "../core";
import { READ_ONLY_ATTRIBUTE_NAMES, READ_ONLY_NAMES, WRITABLE_ATTRIBUTE_NAMES } from "../pulumi-names/source";
import { SECRET_ATTRIBUTE_NAMES } from "../pulumi-names/secret-paths";
import { secretsApart, URN_KEY } from "./shape";
import { dynamicIgnoreChanges, resourceOptionsInput } from "./resource-options";

export type { SourceArgs } from "./source-types";

// Merged into the class: its members come from a mapped type (the sdk's list), which a class cannot
// `declare`; like the declared outputs below, the engine sets them.
/** The read-only deployment fields (`allowsUpload`, `passwordSet`, ...) are outputs too. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- see above
export interface Source extends SourceReadOnlyOutputs {}

// A dynamic resource written directly (see serialized-provider.ts), not through
// pulumi.dynamic.Resource, whose serialized provider is forty times the size of ours.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface above
export class Source extends pulumi.CustomResource {
  /** Display name; does not affect how assets are served. */
  declare readonly name: pulumi.Output<string>;
  /** Whether the Source serves traffic; a disabled one answers 410 Gone for assets not cached. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The deployment as the server returns it (defaults filled in, no write-only field). */
  declare readonly deployment: pulumi.Output<SourceDeployment>;
  /** deploying, deployed, disabled or deleted. */
  declare readonly deploymentStatus: pulumi.Output<string>;
  /** Unix time of the last deployment. */
  declare readonly dateDeployed: pulumi.Output<number | null>;
  /** Signing token for securing assets; present only while secure URLs are enabled. Always secret. */
  declare readonly secureUrlToken: pulumi.Output<string | undefined>;
  /** The declared write-only values. Always secret. */
  declare readonly deploymentSecrets: pulumi.Output<Record<string, unknown>>;

  constructor(name: string, args: SourceArgs, opts: pulumi.CustomResourceOptions = {}) {
    // The fields may be inputs, the object itself not: its write-only fields are split off here.
    if (!isPlainObject(args.deployment) || pulumi.Output.isInstance(args.deployment)) {
      throw new Error(`Source ${name}: deployment: must be an object (its fields may be Pulumi inputs, the object itself not)`);
    }
    const { open: deployment, secrets } = secretsApart(args.deployment);
    const props = {
      [PROVIDER_KEY]: SERIALIZED_PROVIDER,
      ...Object.fromEntries(WRITABLE_ATTRIBUTE_NAMES.map((key) => [key, args[key]])),
      deployment,
      [DYNAMIC_SECRETS_KEY]: pulumi.secret(pulumi.output(secrets)),
      // Only the options given: every property costs @pulumi/pulumi four promises with a stack trace
      // each, most of what a Source costs the program, and an absent option is never sent anyway.
      ...providerOptions(args),
      // The provider cannot learn the URN from the dynamic host: the create mark derives from it.
      [URN_KEY]: pulumi.createUrn(name, SOURCE_RESOURCE_TYPE, opts.parent),
      // Nor its replaceOnChanges and customTimeouts: passed when given (resource-options.ts).
      ...resourceOptionsInput(opts),
      // Outputs only: declared here so that the resource has them.
      ...Object.fromEntries([...READ_ONLY_ATTRIBUTE_NAMES, ...READ_ONLY_NAMES].map((key) => [key, undefined])),
    };
    const additionalSecretOutputs = [...(opts.additionalSecretOutputs ?? []), ...SECRET_ATTRIBUTE_NAMES, DYNAMIC_SECRETS_KEY];
    // A write-only field's path, as on the native plugin, names where this resource keeps it too.
    const ignoreChanges = opts.ignoreChanges && dynamicIgnoreChanges(opts.ignoreChanges);
    super(SOURCE_RESOURCE_TYPE, name, props, { ...opts, additionalSecretOutputs, ...(ignoreChanges && { ignoreChanges }) });
  }
}
