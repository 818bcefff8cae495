// A parsed list query (sdk parseListQuery) as SQL over the sources table: filters, sorting and
// paging all happen in SQLite. Field names come from the sdk's sourceListSpec (a fixed allow-list),
// so they may be written into the SQL; every value is a bound parameter.
import type { FilterCondition, ParsedListQuery } from "@asset-delivery/sdk";
import { DATE_DEPLOYED_SQL } from "./deployment-status";

/**
 * A bound value as the list statements write it: `+@name`. SQLite marks a statement for
 * re-preparation when a parameter may steer its plan (a LIKE pattern, a LIMIT, an equality the
 * planner weighs), and better-sqlite3 clears the bindings after every run, which expires such a
 * statement: it was compiled again on every request (50 to 150 µs, most of a list's SQL time).
 * The unary plus changes no value and hides the parameter from the planner, whose plan is then
 * the one of the first preparation (which saw no value either).
 */
export function boundValue(name: string): string {
  return `+@${name}`;
}

const TOP_LEVEL: Record<string, string> = { name: "name", enabled: "enabled", date_deployed: DATE_DEPLOYED_SQL };

function jsonPath(field: string): string {
  const name = field.slice("deployment.".length);
  return `'$."${name.replace(/"/g, '""').replace(/'/g, "''")}"'`;
}

function fieldSql(field: string): string {
  const column = TOP_LEVEL[field];
  if (column) return column;
  if (field.startsWith("deployment.")) return `json_extract(deployment, ${jsonPath(field)})`;
  throw new Error(`no SQL for the list field "${field}"`);
}

/** LIKE pattern for a substring; `\` escapes the wildcards `%` and `_` and itself. */
function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function conditionSql(condition: FilterCondition, param: string, params: Record<string, unknown>): string {
  const { field, kind, value } = condition;
  switch (kind.kind) {
    case "substring":
      params[param] = containsPattern(String(value));
      return `${fieldSql(field)} LIKE ${boundValue(param)} ESCAPE '\\'`;
    case "substring-any":
      params[param] = containsPattern(String(value));
      return `EXISTS (SELECT 1 FROM json_each(deployment, ${jsonPath(field)}) WHERE value LIKE ${boundValue(param)} ESCAPE '\\')`;
    case "exact":
      params[param] = String(value);
      return `${fieldSql(field)} = ${boundValue(param)}`;
    case "boolean":
      params[param] = value === true ? 1 : 0;
      return `${fieldSql(field)} = ${boundValue(param)}`;
  }
}

export interface ListSql {
  /** The conditions: the account's Sources (@account) that pass the filters. */
  where: string;
  orderBy: string;
  params: Record<string, unknown>;
}

/**
 * Plain filters all hold AND at least one `or:` filter holds (when any is given). Strings match
 * substrings case-insensitively (SQLite's LIKE folds ASCII letters only). Booleans sort false
 * first; names case-insensitively; a Source never deployed (date_deployed null) sorts first.
 * Ties break on id (in the last key's direction) so pages are stable; with no sort, Sources come
 * in creation order.
 */
export function listSql(query: ParsedListQuery): ListSql {
  const params: Record<string, unknown> = {};
  const all = query.all.map((condition, i) => conditionSql(condition, `f${i}`, params));
  const any = query.any.map((condition, i) => conditionSql(condition, `o${i}`, params));
  const where = [`account_id = ${boundValue("account")}`, ...all, ...(any.length ? [`(${any.join(" OR ")})`] : [])].join(" AND ");
  const keys = query.sort.map(({ field, descending }) => {
    const expression = field === "name" ? "name COLLATE NOCASE" : fieldSql(field);
    return `${expression} ${descending ? "DESC" : "ASC"}`;
  });
  // The tiebreak runs in the direction of the last key, so that an index ends in (..., id) serves both.
  const tiebreak = `id ${query.sort.at(-1)?.descending ? "DESC" : "ASC"}`;
  const orderBy = keys.length ? [...keys, tiebreak].join(", ") : "rowid ASC";
  return { where, orderBy, params };
}
