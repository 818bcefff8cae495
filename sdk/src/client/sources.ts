// `client.sources` (spec 4.2): the list operations, create without duplicates, update, lookup by
// subdomain and waiting for a deployment.
import { z } from "zod";
import {
  domainNameSchema,
  expected,
  hostnameKey,
  MAX_PAGE_SIZE,
  sourceListSpec,
  subdomainLabelSchema,
  type sourceCreateAttributesSchema,
  type HostnameField,
  type ListQuery,
  type SelectedSource,
  type Source,
  type ParsedSourceCreateAttributes,
  type SourceCreateAttributes,
  type SourcePatchAttributes,
} from "../api";
import { checked } from "./checked";
import type { Clock } from "./clock";
import { Collection } from "./collection";
import { callEndpoint } from "./endpoint";
import { endpoints } from "./endpoints";
import { DeploymentWatch } from "./deployment";
import { DeploymentTimeoutError, SourceDeletedError } from "./errors";
import { positiveMs } from "./options";
import { poll } from "./poll";
import { createWithoutDuplicate } from "./reconcile-create";
import { backoffDelay, type BackoffPolicy } from "./retry";
import type { Send } from "./transport";

export type SourceListQuery = ListQuery<typeof sourceListSpec>;

export interface WaitForDeploymentOptions {
  /** Default 120000 ms. */
  timeoutMs?: number;
  /** Time between polls. Default 1000 ms. */
  intervalMs?: number;
  /**
   * The `date_deployed` read before the change being waited for (the Source as last read before
   * it; null for a Source that had no deployment, as before a create). A `deployed` read counts
   * only when its `date_deployed` is later, or after a read has shown the Source not deployed
   * (see DeploymentWatch). Omitted: the first `deployed` read counts.
   */
  deployedBefore?: number | null;
  /** The write's response: the first read since the change, returned without a request when it is already settled. */
  written?: Source;
  /** Stops the wait (no further read; the sleep between reads cut short), rejecting with the signal's reason. */
  signal?: AbortSignal;
}

const waitOptionsSchema = z.strictObject({
  timeoutMs: positiveMs.default(120_000),
  intervalMs: positiveMs.default(1_000),
  deployedBefore: z.int(expected("Unix seconds")).nonnegative({ error: "must be >= 0" }).nullable().optional(),
});

export class SourcesResource extends Collection<typeof sourceListSpec, Source, SelectedSource> {
  constructor(
    send: Send,
    private readonly clock: Clock,
    /** The client's retry policy, which also bounds how often a create is sent again after reconciling. */
    private readonly retry: BackoffPolicy | false,
  ) {
    super(send, sourceListSpec, {
      list: endpoints.listSources,
      listSelected: endpoints.listSelectedSources,
      get: endpoints.getSource,
      getSelected: endpoints.getSelectedSource,
    });
  }

  /** Creates a Source; after an ambiguous failure it reconciles instead of risking a duplicate. */
  async create(attributes: SourceCreateAttributes): Promise<Source> {
    return this.createWith(attributes, { input: attributes });
  }

  /**
   * `create` of attributes that `sourceCreateAttributesSchema` already parsed (a caller that
   * validated them before, as the provider's check does): sent as they are, without a second parse.
   */
  async createParsed(attributes: ParsedSourceCreateAttributes): Promise<Source> {
    return this.createWith(attributes, { parsed: attributes });
  }

  private async createWith(
    attributes: SourceCreateAttributes,
    body: { input: SourceCreateAttributes } | { parsed: ParsedSourceCreateAttributes },
  ): Promise<Source> {
    // The schema's output also has the read-only attributes, as undefined (dropped): the body leaves them out all the same.
    const args = "parsed" in body ? { parsed: body.parsed as z.output<typeof sourceCreateAttributesSchema> } : body;
    const send = async () => (await callEndpoint(this.send, endpoints.createSource, args)).data;
    const retry = this.retry;
    return createWithoutDuplicate({
      send,
      findExisting: () => this.findBySubdomain(attributes.deployment.service_subdomains[0] ?? ""),
      isOurs: (existing) =>
        existing.attributes.name === attributes.name &&
        (attributes.deployment.annotation === undefined || existing.attributes.deployment.annotation === attributes.deployment.annotation),
      attempts: retry ? retry.maxRetries + 1 : 1,
      pause: (retriesSoFar) => this.clock.sleep(retry ? backoffDelay(retriesSoFar, Math.random(), retry) : 0),
    });
  }

  /** Changes the given attributes; a `deployment` replaces the whole deployment (secrets may be omitted to keep them). */
  async update(id: string, attributes: SourcePatchAttributes): Promise<Source> {
    return (await callEndpoint(this.send, endpoints.updateSource, { params: { id }, input: attributes })).data;
  }

  /** The Source serving `label` as a service subdomain. */
  async findBySubdomain(label: string): Promise<Source | undefined> {
    return this.holderOf("service_subdomains", checked(subdomainLabelSchema, label, "findBySubdomain argument", ["label"]));
  }

  /**
   * The Source of this account that holds `name` in a hostname list (`service_subdomains` labels,
   * `custom_domains`). The API's filter matches substrings of any member, so the results are
   * checked for the exact name (case-insensitively, as DNS compares).
   */
  async findByHostname(field: HostnameField, name: string): Promise<Source | undefined> {
    const schema = field === "service_subdomains" ? subdomainLabelSchema : domainNameSchema;
    return this.holderOf(field, checked(schema, name, "findByHostname argument", ["name"]));
  }

  private async holderOf(field: HostnameField, given: string): Promise<Source | undefined> {
    const wanted = hostnameKey(given);
    const matches = this.iterate({ filter: { [`deployment.${field}`]: given }, page: { size: MAX_PAGE_SIZE } });
    for await (const source of matches) {
      if (source.attributes.deployment[field].some((s) => hostnameKey(s) === wanted)) {
        await matches.return?.();
        return source;
      }
    }
    return undefined;
  }

  /**
   * Polls until the Source is settled (DeploymentWatch): `deployed` by a deployment after the
   * change (see `deployedBefore`), or `disabled` when it is disabled.
   */
  async waitForDeployment(id: string, options: WaitForDeploymentOptions = {}): Promise<Source> {
    const { written, signal, ...rest } = options;
    const { timeoutMs, intervalMs, deployedBefore } = checked(waitOptionsSchema, rest, "waitForDeployment options");
    const watch = new DeploymentWatch(deployedBefore);
    const settled = (source: Source): Source | undefined => {
      if (source.attributes.deployment_status === "deleted") throw new SourceDeletedError(id);
      return watch.settledBy(source) ? source : undefined;
    };
    if (written && settled(written)) return written;
    return poll({
      clock: this.clock,
      intervalMs,
      read: () => this.get(id),
      settled,
      signal,
      giveUp: (source, { waitedMs }) => {
        if (waitedMs + intervalMs <= timeoutMs) return undefined;
        const { deployment_status: status, enabled } = source.attributes;
        return new DeploymentTimeoutError(id, enabled ? "deployed" : "disabled", status, waitedMs, watch.predatesChange(source));
      },
    });
  }
}
