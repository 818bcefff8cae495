// What every list resource offers (spec 4.1): list one page, iterate all pages, collect with a cap,
// and get one object; `fields` switches to the schema of a partial object.
import { encodeListQuery, fieldIssue, parseListQuery, type ListQuery, type ListSpec } from "../api";
import type { z } from "zod";
import { callEndpoint, type Endpoint } from "./endpoint";
import { RequestValidationError } from "./errors";
import { collect, PageIterator, type Page } from "./pagination";
import type { Send } from "./transport";

type ListEndpoint<T> = Endpoint<z.ZodUndefined, z.ZodType<{ data: T[]; meta: { pagination: Page<T>["pagination"] } }>>;
type GetEndpoint<T> = Endpoint<z.ZodUndefined, z.ZodType<{ data: T }>>;

export interface CollectionEndpoints<Full, Selected> {
  list: ListEndpoint<Full>;
  listSelected: ListEndpoint<Selected>;
  get: GetEndpoint<Full>;
  getSelected: GetEndpoint<Selected>;
}

/** With `fields`, the API returns only the selected attributes. */
export type Selection<Q, Full, Selected> = Q extends { fields: readonly string[] } ? Selected : Full;

export class Collection<L extends ListSpec, Full, Selected> {
  constructor(
    protected readonly send: Send,
    private readonly spec: L,
    private readonly endpoints: CollectionEndpoints<Full, Selected>,
  ) {}

  /** One page; without `page`, the API's default page (0, size 20). */
  async list<Q extends ListQuery<L>>(query?: Q): Promise<Page<Selection<Q, Full, Selected>>> {
    const document = await callEndpoint(this.send, this.listEndpoint(query), { query: this.encode(query) });
    return { data: document.data as Selection<Q, Full, Selected>[], pagination: document.meta.pagination };
  }

  /** Every matching object, fetching page after page as the iteration goes. */
  iterate<Q extends ListQuery<L>>(query?: Q): AsyncIterableIterator<Selection<Q, Full, Selected>> {
    this.encode(query); // bad queries fail here, not at the first next()
    const first = query?.page?.number ?? 0;
    return new PageIterator((number) => this.list({ ...query, page: { ...query?.page, number } } as Q), first, this.endpoints.list.path);
  }

  /** At most `max` matching objects. */
  all<Q extends ListQuery<L>>(query: Q | undefined, options: { max: number }): Promise<Selection<Q, Full, Selected>[]> {
    return collect(this.iterate(query), options);
  }

  async get<O extends { fields?: readonly string[] }>(id: string, options?: O): Promise<Selection<O, Full, Selected>> {
    const selected = Boolean(options?.fields?.length);
    const ep = selected ? this.endpoints.getSelected : this.endpoints.get;
    const query = selected ? encodeListQuery(this.spec, { fields: options?.fields }) : undefined;
    // The one path parameter, whatever the route names it (`id`, `report_id`).
    const document = await callEndpoint(this.send, ep, { params: { [ep.pathParts[1]!]: id }, query });
    return document.data as Selection<O, Full, Selected>;
  }

  private listEndpoint(query: ListQuery<L> | undefined): ListEndpoint<Full | Selected> {
    return query?.fields?.length ? this.endpoints.listSelected : this.endpoints.list;
  }

  /** Encodes the query and checks it with the same parser the server uses, naming any bad parameter. */
  private encode(query: ListQuery<L> | undefined): URLSearchParams {
    const params = encodeListQuery(this.spec, query);
    const parsed = parseListQuery(this.spec, Object.fromEntries(params));
    if (!parsed.ok)
      throw new RequestValidationError(
        "list query",
        parsed.issues.map((i) => fieldIssue([i.parameter], i.message)),
      );
    return params;
  }
}
