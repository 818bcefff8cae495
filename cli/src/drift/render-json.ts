// The drift report as JSON (`--format json`): the DriftReport shape of report.ts, unchanged. Made
// printable (the sdk's `printable`): the characters JSON.stringify leaves as they are (DEL, C1
// controls, bidirectional formatting) become \u escapes, which parse back to the same values.
import { printable } from "@asset-delivery/sdk";
import type { DriftReport } from "./report";

export function renderJson(report: DriftReport): string {
  return printable(JSON.stringify(report, null, 2), { keepLineBreaks: true }) + "\n";
}
