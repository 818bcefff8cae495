// The process that generates reports (generation-process.ts forks it, at a low CPU priority): its
// own connection to the server's SQLite file (WAL lets it read and write beside the server's
// connection), so a day's reports of a busy account never hold up the server's event loop.
import { openDatabase } from "../store/database";
import { createReportGenerator } from "./generator";
import type { GenerationJob, GenerationReply, GenerationWorkerData } from "./generation-process";

const { dbPath, dataDir, fileSizeLimit } = JSON.parse(process.argv[2]!) as GenerationWorkerData;
const db = openDatabase(dbPath);
// The server's clock may be injected (tests): each job carries its offset from this process's clock.
let clockOffsetMs = 0;
const generator = createReportGenerator({ db, dataDir, now: () => Date.now() + clockOffsetMs, fileSizeLimit });

process.on("message", (job: GenerationJob) => {
  clockOffsetMs = job.clockOffsetMs;
  let reply: GenerationReply;
  try {
    const generated = generator.missingTypes(job.account, job.date).length;
    generator.generate(job.account, job.date);
    reply = { id: job.id, ok: true, generated };
  } catch (error) {
    reply = { id: job.id, ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  process.send!(reply);
});
// The server went away (it closed the channel, or died): so does this process.
process.on("disconnect", () => process.exit(0));
