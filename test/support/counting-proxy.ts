// A forwarding HTTP proxy that counts the requests passing through it: for counting what a client
// sends to a server running in another process (where startTestServer's in-process counter cannot
// see). Bodies and headers pass unchanged, both ways.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A request the proxy forwarded: its method, path (without query) and Authorization header. */
export interface ProxiedRequest {
  method: string;
  path: string;
  authorization?: string;
}

export interface CountingProxy {
  url: string;
  /** Requests received, optionally only those of a method and/or a path (without query). */
  requestCount(method?: string, path?: string): number;
  /** The requests received since the last reset, in order of arrival. */
  requests(): readonly ProxiedRequest[];
  resetRequestCount(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let requests: ProxiedRequest[] = [];
  const server = http.createServer((request, response) => {
    requests.push({ method: request.method!, path: request.url!.split("?")[0]!, authorization: request.headers.authorization });
    const forwarded = http.request(
      { hostname: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", (error) => response.destroy(error)); // the client sees the connection drop, as it would
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requestCount: (method, path) =>
      requests.filter((r) => (method === undefined || r.method === method) && (path === undefined || r.path === path)).length,
    requests: () => [...requests],
    resetRequestCount: () => void (requests = []),
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
