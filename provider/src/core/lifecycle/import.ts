// An import (a read without a state): the Source as the server has it, read like a refresh
// (an import's many reads share list pages), and the inputs that declare it as it is: those of
// `asset-delivery import` (declaration.ts), without `adoptSourceId`, since the engine records the
// Source under the imported id. Its secrets cannot be read: none are declared, and adoption keeps
// the stored ones. The state records those the user declared the server holds
// (trusted-secrets.ts), as an update would have: a program declaring the same values sends nothing.
import type { Session } from "../session";
import { sourceOutputs, type SourceState } from "../codec";
import { declarationOf } from "../declaration";
import { PROVIDER_OPTION_DEFAULTS } from "../provider-options";
import { trustedSecretsOf } from "../trusted-secrets";

export interface ImportedSource {
  id: string;
  outputs: SourceState;
  inputs: Record<string, unknown>;
}

export async function importSource(session: Session, id: string): Promise<ImportedSource> {
  const source = await session.reads.read(id);
  if (!source)
    throw new Error(`Source "${id}" does not exist in the account of the API key: import needs the 24-character id of one of its Sources`);
  const { adoptSourceId: _adopted, ...inputs } = declarationOf(source).args;
  const declared = { options: PROVIDER_OPTION_DEFAULTS, deployment: trustedSecretsOf(session.trustedSecrets, source) };
  return { id: source.id, outputs: sourceOutputs(source, declared), inputs };
}
