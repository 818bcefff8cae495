// The client's public surface.
export { createClient, type AssetDeliveryClient } from "./create-client";
export type { ClientOptions, RetryOptions, PacingOptions } from "./options";
export type { RequestInfo, ResponseInfo } from "./transport";
export { pacingLimits } from "./options";
export type { Clock } from "./clock";
export { systemClock } from "./clock";
export { insecureBaseUrlProblem, isLoopbackHost } from "./insecure-http";
export * from "./errors";
export type { Page } from "./pagination";
export { DeploymentWatch, type DeploymentState } from "./deployment";
export type { SourceListQuery, WaitForDeploymentOptions, SourcesResource } from "./sources";
export type { ReportListQuery, ReportsResource } from "./reports";
export { reportTable, creditRowsOf, type CsvTable } from "./report-files";
export type { WaitForResultOptions, VideosResource } from "./videos";
export type { PurgeOptions, PurgeResult, PurgesResource } from "./purges";
export {
  shouldRetry,
  backoffDelay,
  parseRetryAfter,
  isAmbiguousFailure,
  type RetryDecision,
  type RetryState,
  type RetryPolicy,
} from "./retry";
export { TokenBucket, type PacingWait } from "./pacing";
