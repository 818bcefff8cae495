// The data-source functions as a TypeScript program calls them: each call connects with the
// stack's settings (client.ts) and runs the query of sources.ts, reports.ts or videos.ts; the
// `...Output` forms take inputs and give an Output, secret when a Source's secret value (the sdk's
// field table marks it: the secure-URL token) is in it.
import { outputForm, withClient } from "./client";
import { reportOf, reportsOf, type GetReportArgs, type GetReportsArgs, type ReportResult, type ReportWithRows } from "./reports";
import { holdsSecret, sourceOf, sourcesOf, type GetSourceArgs, type GetSourcesArgs, type SourceResult } from "./sources";
import { videoJobOf, type VideoJobResult } from "./videos";

export async function getSource(args: GetSourceArgs): Promise<SourceResult> {
  return withClient((client) => sourceOf(client, args));
}

export async function getSources(args: GetSourcesArgs = {}): Promise<{ sources: SourceResult[] }> {
  return withClient((client) => sourcesOf(client, args));
}

export async function getReports(args: GetReportsArgs = {}): Promise<{ reports: ReportResult[] }> {
  return withClient((client) => reportsOf(client, args));
}

export async function getReport(args: GetReportArgs): Promise<ReportWithRows> {
  return withClient((client) => reportOf(client, args));
}

export async function getVideoJob(args: { id: string }): Promise<VideoJobResult> {
  return withClient((client) => videoJobOf(client, args));
}

export const getSourceOutput = outputForm(getSource, holdsSecret);
export const getSourcesOutput = outputForm(getSources, (result) => result.sources.some(holdsSecret));
export const getReportsOutput = outputForm(getReports);
export const getReportOutput = outputForm(getReport);
export const getVideoJobOutput = outputForm(getVideoJob);
