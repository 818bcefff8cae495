export {
  getSource,
  getSourceOutput,
  getSources,
  getSourcesOutput,
  type GetSourceArgs,
  type GetSourcesArgs,
  type SourceResult,
} from "./sources";
export {
  getReport,
  getReportOutput,
  getReports,
  getReportsOutput,
  type GetReportArgs,
  type GetReportsArgs,
  type ReportResult,
  type ReportWithRows,
} from "./reports";
export { getVideoJob, getVideoJobOutput, type VideoJobResult } from "./videos";
