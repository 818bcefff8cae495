// The baseline of bench/server.mjs: a bare node:http server that answers each captured path with
// the exact status, headers and body bytes the real server sent for it. Whatever the real server
// spends beyond this (routing, auth, SQL, JSON:API documents) is the overhead being measured.
//
//   node bench/lib/bare-server.mjs <captured.json>   (prints "bare server listening on <url>")
import * as fs from "node:fs";
import { createServer } from "node:http";

// Headers that belong to one connection or moment, not to the answer.
const PER_CONNECTION = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

const captured = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const answers = new Map(
  Object.entries(captured).map(([target, { status, headers, body }]) => [
    target,
    {
      status,
      headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_CONNECTION.has(name))),
      body: Buffer.from(body, "base64"),
    },
  ]),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  // The request body (none for GETs) is drained so that keep-alive goes on.
  req.resume();
  res.writeHead(answer.status, answer.headers).end(answer.body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`bare server listening on http://127.0.0.1:${server.address().port}\n`);
});
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
