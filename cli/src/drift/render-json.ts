// The drift report as JSON (`--format json`): the DriftReport shape of report.ts, unchanged.
import type { DriftReport } from "./report";

export function renderJson(report: DriftReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
