// The public surface of @asset-delivery/server.
// First, before any module that loads better-sqlite3 (tsc's CommonJS output keeps this order).
import { assertSupportedNode } from "@asset-delivery/sdk/node-version";
assertSupportedNode("@asset-delivery/server");

export { appPlugin, buildApp, DEFAULT_DEPLOY_LAG_MS, type AppOptions, type ResolvedAppOptions } from "./app";
// The types of the decorators the Sources module adds (app.sourceStore, app.sourceService).
export type { SourceStore, SourceService } from "./sources";
export { startServer, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_DEPLOY_DELAY_MS, type ServerOptions, type RunningServer } from "./listen";
export { AdminError, createAccount, ensureAccount, listAccounts, createKey, listKeys, revokeKey, type CreatedKey } from "./accounts/admin";
export { createUser, listUsers, removeUser, setUserPassword, type CreatedUser } from "./dashboard/users/admin";
export { DEFAULT_SESSION_LIFETIME_HOURS } from "./dashboard/session-rules";
export { type DashboardUser } from "./dashboard/users/user-store";
export { PLANS, type Plan, type Account } from "./accounts/account-store";
export { type ApiKeyRecord, type AuthContext } from "./accounts/key-store";
export { openDatabase, migrate, type Database, type Migration } from "./store/database";
export { allMigrations, openMigratedDatabase } from "./migrations";
export { loadOrCreateSecretKey, parseSecretKey, secretKeyFileFor, SECRET_KEY_ENV } from "./store/secret-key";
export { defineRoute, type RouteDefinition, type RegisteredRoute, type RouteContext } from "./http/route";
export { HttpError, notFound, badRequest, validationFailed, invalidParameters, ERROR_TITLES, VALIDATION_ERROR } from "./http/errors";
export { singleDocument, listDocument, errorDocument, SERVER_INFO } from "./http/documents";
export { generateReports, setReportTypes, OPTIONAL_REPORT_TYPES, reportTypesFor, type GenerateReportsInput } from "./reports";
export { importUsage, seedUsage, usageEventSchema, RENDER_CLASSES, type SeedUsageInput, type UsageEventInput } from "./usage";
export { PRICES } from "./pricing/credits";
export { VIDEO_ERROR_CODES, MAX_RENDER_ATTEMPTS, VIDEO_FORMAT } from "./videos";
export { buildOpenApiDocument, OPENAPI_PATH } from "./openapi";
export { TokenBuckets } from "./http/rate-limit";
export { createPurgeStore, PURGE_RECORD_DAYS, type PurgeRecord } from "./purges";
export { FAULT_KINDS, type FaultKind, type FaultOptions } from "./http/faults";
export { PROFILES, HEADERS_BEYOND_SPEC, type Profile } from "./http/profile";
export { UNAUTHORIZED_DETAIL } from "./http/auth";
export { parseTrustProxy, trustProxyProblem, type TrustProxy } from "./http/trust-proxy";
