// The Source provider as the Pulumi engine runs it. The resource's serialized provider is only a
// `require` of this module (see serialized-provider.ts), so every operation, `destroy` included,
// runs the installed version of this code and the state carries no copied source. Credentials are
// read in `configure` (the stack's config) or from the environment, and never stored here beyond
// the process.
import type * as pulumi from "@pulumi/pulumi";
import { checkSource, type UncheckedInputs } from "./check";
import { resolveCredentials, type ConfigReader } from "./credentials";
import { diffSource } from "./diff";
import { guardProviderProcess } from "./engine-guard";
import { createSource } from "./lifecycle/create";
import { readSource } from "./lifecycle/read";
import { retireSource } from "./lifecycle/retire";
import { updateSource } from "./lifecycle/update";
import { sessionFor, type Session } from "./session";
import type { SourceInputs, SourceState } from "./source-state";

// Loaded by @pulumi/pulumi's dynamic-provider host, which never notices its engine going away:
// this process must end with its engine (engine-guard.ts). Not when a test or a script loads it.
if (/[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(require.main?.filename ?? "")) guardProviderProcess();

let stackConfig: ConfigReader = () => undefined;

function session(): Session {
  return sessionFor(resolveCredentials(stackConfig));
}

// The engine hands back what `check` returned as the inputs of diff, create and update, and what
// create, update and read returned as the state: the methods take those types.
export const sourceProvider = {
  async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
    stackConfig = (key) => request.config.get(key);
  },
  async check(_olds: unknown, news: UncheckedInputs): Promise<pulumi.dynamic.CheckResult> {
    return checkSource(news);
  },
  async diff(id: string, olds: SourceState, news: SourceInputs): Promise<pulumi.dynamic.DiffResult> {
    const { changes, replaces } = diffSource(id, olds, news);
    return { changes, replaces, deleteBeforeReplace: false };
  },
  async create(inputs: SourceInputs): Promise<pulumi.dynamic.CreateResult> {
    return createSource(session(), inputs);
  },
  async read(id: string, state: SourceState): Promise<pulumi.dynamic.ReadResult> {
    return readSource(session(), id, state);
  },
  async update(id: string, olds: SourceState, news: SourceInputs): Promise<pulumi.dynamic.UpdateResult> {
    return updateSource(session(), id, olds, news);
  },
  async delete(id: string): Promise<void> {
    await retireSource(session(), id);
  },
} satisfies pulumi.dynamic.ResourceProvider;
