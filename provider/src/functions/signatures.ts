// Each data-source function's signature, stated once: what it is, its arguments (how the schema
// declares each, in words, whether required, and the TypeScript type a program passes) and its
// result's members. The TypeScript argument types (`GetSourceArgs`, ...: `ArgsOf`) and the plugin's
// schema (plugin/schema/functions.ts) are both made from it. An argument's TypeScript type may be richer than
// its schema type: a filter is the sdk's typed query in TypeScript (`enabled: true`) and a map of
// strings in every other language (`enabled: "true"`), which the sdk's client writes the same.
import type { FieldDescriptor, ReportListQuery, SourceListQuery, ValueShape } from "@asset-delivery/sdk";
import type { FUNCTION_TOKENS, TYPE_TOKENS } from "../tokens";
import { DEFAULT_MAX_RESULTS, REPORT_RESULT_FIELDS, VIDEO_JOB_RESULT_FIELDS } from "./results";

declare const typeOfArgument: unique symbol;

/** One argument: its descriptor (the sdk's, as the schema reads a field's) and, in types only, what a TypeScript program passes. */
export type Argument<T, Required extends boolean> = FieldDescriptor & { required: Required; readonly [typeOfArgument]?: T };

type Arguments = Readonly<Record<string, Argument<unknown, boolean>>>;

/** A required argument of TypeScript type `T`, declared in the schema as `shape`. */
function required<T>(shape: ValueShape, description?: string): (name: string) => Argument<T, true> {
  return (name) => argument(name, shape, true, description) as Argument<T, true>;
}

/** An optional argument of TypeScript type `T`, declared in the schema as `shape`. */
function optional<T>(shape: ValueShape, description?: string): (name: string) => Argument<T, false> {
  return (name) => argument(name, shape, false, description) as Argument<T, false>;
}

function argument(name: string, shape: ValueShape, isRequired: boolean, description: string | undefined): FieldDescriptor {
  return {
    ...shape,
    apiName: name,
    name,
    nullable: false,
    required: isRequired,
    writeOnly: false,
    secret: false,
    readOnly: false,
    affectsRendering: false,
    ...(description !== undefined && { description }),
  };
}

/** The arguments, each named by its key. */
function args<A extends Record<string, (name: string) => Argument<unknown, boolean>>>(
  made: A,
): { readonly [K in keyof A]: ReturnType<A[K]> } {
  return Object.fromEntries(Object.entries(made).map(([name, make]) => [name, make(name)])) as {
    readonly [K in keyof A]: ReturnType<A[K]>;
  };
}

/** An intersection of object types as one object type. */
type OneObject<T> = { [K in keyof T]: T[K] };

/** The TypeScript arguments of a function: required ones as such, the others optional. */
export type ArgsOf<A extends Arguments> = OneObject<
  {
    -readonly [K in keyof A as A[K]["required"] extends true ? K : never]: A[K] extends Argument<infer T, boolean> ? T : never;
  } & {
    -readonly [K in keyof A as A[K]["required"] extends true ? never : K]?: A[K] extends Argument<infer T, boolean> ? T : never;
  }
>;

/** A schema object type this package declares (not a deployment type's): the Source as read, a report. */
export type NamedType = keyof typeof TYPE_TOKENS;

/** A member of a function's result. */
export type ResultMember =
  /** A list of a named type's objects (`sources`, `reports`). */
  | { name: string; required: boolean; listOf: NamedType }
  /** A value described as the sdk describes a field. */
  | { name: string; required: boolean; field: FieldDescriptor };

/** What a function returns: a named type's members inline, then members of its own. */
export interface FunctionResult {
  /** The named type whose members the result holds, inline (Pulumi YAML 1.25 cannot type an invoke's result given by reference). */
  membersOf?: NamedType;
  members: readonly ResultMember[];
}

export interface Signature<A extends Arguments = Arguments> {
  description: string;
  args: A;
  result: FunctionResult;
}

const stringMap: ValueShape = { type: "map", values: { type: "string" } };
const sortList: ValueShape = { type: "array", items: { type: "string" } };

/** The arguments of a list: filters, sorting and a cap (`example`: a filter, as the schema's languages write it). */
function listArgs<Filter, Sort>(example: string) {
  return {
    filter: optional<Filter>(stringMap, `Filters by the API's names (all must hold), e.g. \`${example}\`.`),
    sort: optional<Sort>(sortList, "Sort fields; a leading `-` reverses."),
    max: optional<number>({ type: "integer" }, `At most this many, fetched page after page. Default ${DEFAULT_MAX_RESULTS}.`),
  };
}

/** Each member of the sdk's descriptors as a result member, its requiredness theirs. */
function fieldsAsMembers(fields: readonly FieldDescriptor[]): ResultMember[] {
  return fields.map((field) => ({ name: field.name, required: field.required, field }));
}

export const GET_SOURCE = {
  description: "A Source as the server has it, by id or by one of its service subdomains.",
  args: args({
    id: optional<string>({ type: "string" }, "The Source's 24-character id."),
    subdomain: optional<string>({ type: "string" }, "Or one of its service subdomains (the label only)."),
  }),
  result: { membersOf: "sourceInfo", members: [] },
} satisfies Signature;

export const GET_SOURCES = {
  description: "The account's Sources, filtered and sorted by the API.",
  args: args({
    ...listArgs<SourceListQuery["filter"], SourceListQuery["sort"]>('{"deployment.type": "s3", "enabled": "true"}'),
    or: optional<SourceListQuery["or"]>(stringMap, "`filter[or:...]` conditions: at least one must hold."),
  }),
  result: { members: [{ name: "sources", required: true, listOf: "sourceInfo" }] },
} satisfies Signature;

export const GET_REPORTS = {
  description: "The account's analytics reports.",
  args: args(listArgs<ReportListQuery["filter"], ReportListQuery["sort"]>('{"report_type": "credit_analytics_daily"}')),
  result: { members: [{ name: "reports", required: true, listOf: "report" }] },
} satisfies Signature;

/** A row of a report's file: a value per column (credit reports' numbers parsed). */
const ROWS: FieldDescriptor = argument(
  "rows",
  { type: "array", items: { type: "map", values: { type: "oneOf", of: [{ type: "string" }, { type: "number" }] } } },
  false,
  undefined,
);

export const GET_REPORT = {
  description: "One analytics report; with `includeRows`, its files downloaded and parsed.",
  args: args({
    id: required<string>({ type: "string" }),
    includeRows: optional<boolean>({ type: "boolean" }, "Download and parse the files."),
  }),
  result: { membersOf: "report", members: [{ name: "rows", required: false, field: ROWS }] },
} satisfies Signature;

export const GET_VIDEO_JOB = {
  description: "The state of an image-to-video generation job.",
  args: args({ id: required<string>({ type: "string" }) }),
  result: { members: fieldsAsMembers(VIDEO_JOB_RESULT_FIELDS) },
} satisfies Signature;

/** Every function's signature, by the schema's function name. */
export const SIGNATURES: Readonly<Record<keyof typeof FUNCTION_TOKENS, Signature>> = {
  getSource: GET_SOURCE,
  getSources: GET_SOURCES,
  getReports: GET_REPORTS,
  getReport: GET_REPORT,
  getVideoJob: GET_VIDEO_JOB,
};

/** The members of the report type, as the schema declares it. */
export const REPORT_MEMBERS: readonly ResultMember[] = fieldsAsMembers(REPORT_RESULT_FIELDS);
