// A forwarding HTTP proxy that counts what reaches the server behind it: requests by method and
// path, and answers by status. It also gives Pulumi stacks one address while the server behind it
// is restarted (on another port): a refresh uses the provider configuration stored in the state,
// so the address the stacks know must not change.
"use strict";
const http = require("node:http");

/** Starts the proxy on a free loopback port in front of `target` (an http:// origin). */
function startCountingProxy(target) {
  let upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const counts = { requests: 0, byStatus: {}, byRequest: {} };
  const server = http.createServer((req, res) => {
    counts.requests++;
    const key = `${req.method} ${req.url.split("?")[0]}`;
    counts.byRequest[key] = (counts.byRequest[key] ?? 0) + 1;
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        counts.byStatus[answer.statusCode] = (counts.byStatus[answer.statusCode] ?? 0) + 1;
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        counts,
        /** Forwards to another origin from now on. */
        retarget(origin) {
          upstream = new URL(origin);
          agent.destroy();
        },
        reset() {
          counts.requests = 0;
          counts.byStatus = {};
          counts.byRequest = {};
        },
        close() {
          agent.destroy();
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      }),
    ),
  );
}

module.exports = { startCountingProxy };
