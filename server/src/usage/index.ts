// The usage ledger: what each account's Sources served, recorded from imported or seeded events,
// and read by the reports (reports/) and priced by pricing/.
export { usageMigrations } from "./migrations";
export { createLedger, type Ledger } from "./ledger";
export { parseUsageLines, usageEventSchema, RENDER_CLASSES, type UsageEvent, type UsageEventInput } from "./event";
export { sampleUsage } from "./seed";
export { parseDay, addDays, yesterdayOf, dateOf, type UtcDay } from "./days";
export { importUsage, seedUsage, type SeedUsageInput } from "./admin";
