// What to declare for a Source made elsewhere (core/declaration.ts) in the resource's names: the
// arguments `asset-delivery import` writes.
import type { Source } from "@asset-delivery/sdk";
import { declarationOf as apiDeclarationOf, type SourceImport } from "../core";
import { camelCase } from "./rename";
import { toPulumiNames } from "./source";

/** What to declare for a Source made elsewhere (core/declaration.ts), as the resource's arguments: what `asset-delivery import` writes. */
export function declarationOf(source: Source): SourceImport {
  const { args, secrets } = apiDeclarationOf(source);
  return {
    args: toPulumiNames(args) as SourceImport["args"],
    secrets: secrets.map(({ field, set }) => ({ field: camelCase(field), set })),
  };
}
