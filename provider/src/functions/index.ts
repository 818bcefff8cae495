export {
  getReport,
  getReportOutput,
  getReports,
  getReportsOutput,
  getSource,
  getSourceOutput,
  getSources,
  getSourcesOutput,
  getVideoJob,
  getVideoJobOutput,
} from "./program-forms";
export type { GetSourceArgs, GetSourcesArgs, SourceResult } from "./sources";
export type { GetReportArgs, GetReportsArgs, ReportResult, ReportWithRows } from "./reports";
export type { VideoJobResult } from "./videos";
