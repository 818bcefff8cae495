// Assembles a client: the request core over a keep-alive pool, wrapped by pacing, then retry.
import { PurgesResource } from "./purges";
import { ReportsResource } from "./reports";
import { createAgent, createSender, type Send } from "./transport";
import { resolveOptions, type ClientOptions } from "./options";
import { withPacing } from "./pacing";
import { withRetry } from "./retry";
import { SourcesResource } from "./sources";
import { VideosResource } from "./videos";

export interface AssetDeliveryClient {
  readonly sources: SourcesResource;
  readonly reports: ReportsResource;
  readonly videos: VideosResource;
  readonly purges: PurgesResource;
  /** Closes the connection pool the client created (an injected dispatcher is left open). */
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): AssetDeliveryClient {
  const resolved = resolveOptions(options);
  const ownAgent = resolved.dispatcher ? undefined : createAgent(resolved.timeoutMs);
  let send: Send = createSender(resolved, resolved.dispatcher ?? ownAgent!);
  // Retry outside pacing: every attempt waits for its own token.
  if (resolved.pacing)
    send = withPacing(send, {
      limits: resolved.pacing,
      clock: resolved.clock,
      maxWaitMs: resolved.maxWaitMs,
      onWait: resolved.onPacingWait,
    });
  if (resolved.retry) send = withRetry(send, { ...resolved.retry, rateLimitDeadlineMs: resolved.rateLimitDeadlineMs }, resolved.clock);
  return {
    sources: new SourcesResource(send, resolved.clock, resolved.retry),
    reports: new ReportsResource(send),
    videos: new VideosResource(send, resolved.clock),
    purges: new PurgesResource(send),
    close: async () => {
      await ownAgent?.close();
    },
  };
}
