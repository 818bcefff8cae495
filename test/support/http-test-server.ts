// A small HTTP server on loopback for client tests: each test answers with its own handler (canned
// JSON:API documents, faults such as a dropped connection). It records every request it receives.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query, decoded into `path` and `query` for convenience. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => unknown;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections: number;
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://test");
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(recorded);
    try {
      await handler(recorded, res);
    } catch (error) {
      res.writeHead(599).end(String(error));
    }
  };
  // Reading the body fails when the client drops the connection: that response ends, not the test run.
  const server = createServer((req, res) => {
    answer(req, res).catch((error: Error) => res.destroy(error));
  });
  server.on("connection", (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/vnd.api+json", ...headers }).end(JSON.stringify(body));
}

/** Drops the connection without answering: the request was received, the client sees a reset. */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/** A loopback port with nothing listening on it (connections are refused before anything is sent). */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
