// getSource / getSources: Sources as the server has them, in the Source resource's camelCase shape,
// read with the caller's client (the program-side forms are in program-forms.ts; the native plugin's
// Invoke calls these with its own connection, without loading @pulumi/pulumi).
import { MAX_PAGE_SIZE, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { sourceAttributes, type ReturnedAttributes } from "../pulumi-names/source";
import { SECRET_ATTRIBUTE_NAMES } from "../pulumi-names/secret-paths";
import { DEFAULT_MAX_RESULTS } from "./results";
import type { ArgsOf, GET_SOURCE, GET_SOURCES } from "./signatures";

/**
 * A Source as the server has it: the Source resource's outputs but what only the program knows
 * (its write-only secrets, the provider's options). `secureUrlToken` is in it while secure URLs are
 * on, and makes the `...Output` forms secret.
 */
export type SourceResult = { id: string } & ReturnedAttributes;

/** The members of a result that are secret (`secureUrlToken`): the sdk's field table marks them. */
export const SECRET_RESULT_FIELDS: readonly string[] = SECRET_ATTRIBUTE_NAMES;

/** Whether a Source's result holds a secret value: its `...Output` form is secret then. */
export function holdsSecret(source: SourceResult): boolean {
  return SECRET_RESULT_FIELDS.some((field) => (source as Record<string, unknown>)[field] !== undefined);
}

/** getSource's arguments: the signature's (signatures.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that its name is its type in users' editors and the API report
export interface GetSourceArgs extends ArgsOf<typeof GET_SOURCE.args> {}

/** getSource: by id or by one of its service subdomains. */
export async function sourceOf(client: AssetDeliveryClient, args: GetSourceArgs): Promise<SourceResult> {
  if ((args.id === undefined) === (args.subdomain === undefined)) throw new Error("getSource: pass exactly one of id and subdomain");
  const source = args.id !== undefined ? await client.sources.get(args.id) : await client.sources.findBySubdomain(args.subdomain!);
  if (!source) throw new Error(`getSource: no Source of this account serves the subdomain "${args.subdomain}"`);
  return { id: source.id, ...sourceAttributes(source) };
}

/** getSources' arguments: the signature's (signatures.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that its name is its type in users' editors and the API report
export interface GetSourcesArgs extends ArgsOf<typeof GET_SOURCES.args> {}

/** getSources: the account's Sources, filtered and sorted by the API, at most `max`. */
export async function sourcesOf(client: AssetDeliveryClient, args: GetSourcesArgs = {}): Promise<{ sources: SourceResult[] }> {
  const query = { filter: args.filter, or: args.or, sort: args.sort, page: { size: MAX_PAGE_SIZE } };
  const sources = await client.sources.all(query, { max: args.max ?? DEFAULT_MAX_RESULTS });
  return { sources: sources.map((source) => ({ id: source.id, ...sourceAttributes(source) })) };
}
