// `--filter FIELD=VALUE` as the API has Source filters (spec 4.1): every plain filter must hold,
// and at least one `or:FIELD=VALUE` filter when any is given. Fields and values are checked against
// the sdk's table of Source filters here, because the API silently ignores an unknown filter field
// and a typo would then select the whole account.
import { sourceListSpec, type FilterKind, type ListQuery } from "@asset-delivery/sdk";
import { UsageError } from "../command";

export type SourceQuery = Pick<ListQuery<typeof sourceListSpec>, "filter" | "or">;

const FILTERS = sourceListSpec.filters as Record<string, FilterKind>;

/** The `--filter` values, e.g. `deployment.type=s3`, `name=shop`, `or:name=blog`. */
export function parseFilters(values: readonly string[]): SourceQuery {
  const filter: Record<string, string | boolean> = {};
  const or: Record<string, string | boolean> = {};
  for (const text of values) {
    const match = /^(or:)?([^=]+)=(.*)$/s.exec(text);
    if (!match) throw new UsageError(`--filter "${text}": must be FIELD=VALUE or or:FIELD=VALUE`);
    const [, orPrefix, field, raw] = match as unknown as [string, string | undefined, string, string];
    const kind = FILTERS[field];
    if (!kind) throw new UsageError(`--filter "${text}": "${field}" is not a Source filter; filter by ${Object.keys(FILTERS).join(", ")}`);
    const target = orPrefix ? or : filter;
    if (field in target)
      throw new UsageError(`--filter "${text}": ${orPrefix ?? ""}${field} is given twice (the API takes one value per filter)`);
    target[field] = filterValue(text, kind, raw);
  }
  return { ...(Object.keys(filter).length > 0 && { filter }), ...(Object.keys(or).length > 0 && { or }) };
}

function filterValue(text: string, kind: FilterKind, raw: string): string | boolean {
  if (kind.kind === "boolean") {
    if (raw !== "true" && raw !== "false") throw new UsageError(`--filter "${text}": must be true or false`);
    return raw === "true";
  }
  if (kind.kind === "exact" && !kind.values.includes(raw))
    throw new UsageError(`--filter "${text}": must be one of ${kind.values.join(", ")}`);
  if (raw === "") throw new UsageError(`--filter "${text}": the value is empty`);
  return raw;
}
