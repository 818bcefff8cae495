// The Source provider as the Pulumi engine's dynamic-provider host runs it. The resource's
// serialized provider is only a `require` of this module (see serialized-provider.ts), so every
// operation, `destroy` included, runs the installed version of this code and the state carries no
// copied source. This is a shell around the core's provider object (core/provider.ts): it takes
// the host's `__provider` property off what the core receives (the host puts it back on what the
// core returns, but for a Source not ready in time, whose properties the host reads from the error).
// First, before the other modules load (tsc's CommonJS output keeps this order).
import { assertSupportedNode } from "@asset-delivery/sdk/node-version";
assertSupportedNode("@asset-delivery/provider");
import type * as pulumi from "@pulumi/pulumi";
import { createSourceProvider } from "./core/provider";
import { engineAddress, engineInfo, engineWarnings } from "./core/engine-log";
import { SourceNotReadyError } from "./core/lifecycle/settle";
import type { SourceInputs, SourceState, UncheckedInputs } from "./core/codec";
import { guardProviderProcess } from "./core/engine-guard";
import { PROVIDER_KEY } from "./serialized-provider";

// The host passes the engine's address as the process's last argument.
const core = createSourceProvider({ warn: engineWarnings(engineAddress(process.argv)), info: engineInfo(engineAddress(process.argv)) });

// Loaded by @pulumi/pulumi's dynamic-provider host, which never notices its engine going away:
// this process must end with its engine (core/engine-guard.ts). Not when a test or a script loads it.
if (/[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(require.main?.filename ?? "")) guardProviderProcess();

/** What the host hands over: the core's type, plus the host's own property. */
type Hosted<T> = T & { [PROVIDER_KEY]?: string };

function withoutProviderKey<T extends object>({ [PROVIDER_KEY]: _serialized, ...rest }: Hosted<T>): T {
  // Only the host's property is taken off.
  return rest as unknown as T;
}

/** A Source not ready in time keeps the host's property in the state the error carries. */
async function keepingProviderKey<T>(inputs: Hosted<object>, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof SourceNotReadyError) {
      const properties = Object.assign({}, error.properties, { [PROVIDER_KEY]: inputs[PROVIDER_KEY] });
      throw new SourceNotReadyError(error.id, properties, error.reasons);
    }
    throw error;
  }
}

// The engine hands back what `check` returned as the inputs of diff, create and update, and what
// create, update and read returned as the state: the methods take those types.
export const sourceProvider = {
  async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
    core.configure((key) => request.config.get(key));
  },
  async check(olds: object, news: UncheckedInputs): Promise<pulumi.dynamic.CheckResult> {
    core.writes.checked(Object.keys(olds).length === 0); // a create, for the run's write budget
    return core.check(news);
  },
  async diff(id: string, olds: Hosted<SourceState>, news: Hosted<SourceInputs>): Promise<pulumi.dynamic.DiffResult> {
    const { changes, replaces } = core.diff(id, withoutProviderKey(olds), withoutProviderKey(news));
    return { changes, replaces, deleteBeforeReplace: false };
  },
  async create(inputs: Hosted<SourceInputs>): Promise<pulumi.dynamic.CreateResult> {
    return keepingProviderKey(inputs, () => core.create(withoutProviderKey(inputs)));
  },
  async read(id: string, state: Hosted<SourceState>): Promise<pulumi.dynamic.ReadResult> {
    return core.read(id, withoutProviderKey(state));
  },
  async update(id: string, olds: Hosted<SourceState>, news: Hosted<SourceInputs>): Promise<pulumi.dynamic.UpdateResult> {
    return keepingProviderKey(news, () => core.update(id, withoutProviderKey(olds), withoutProviderKey(news)));
  },
  async delete(id: string): Promise<void> {
    await core.delete(id);
  },
} satisfies pulumi.dynamic.ResourceProvider;
