import { createServer, request as forward, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestApp, type TestContext } from "../../helpers.js";

/** the app on a real port, for the client to reach over HTTP */
export async function serveTestApp(env: Record<string, string> = {}): Promise<{
  ctx: TestContext;
  baseUrl: string;
}> {
  const ctx = await startTestApp(env);
  await ctx.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = ctx.app.server.address() as AddressInfo;
  return { ctx, baseUrl: `http://127.0.0.1:${port}` };
}

export interface Seen {
  method: string;
  path: string;
  requestId: string | undefined;
  authorization: string | undefined;
  at: number;
}

/** a fetch that records what it sends, for counting token requests and reading headers */
export function recordingFetch(): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    fetch: (input, init) => {
      const request = new Request(input, init);
      seen.push({
        method: request.method,
        path: new URL(request.url).pathname,
        requestId: request.headers.get("x-request-id") ?? undefined,
        authorization: request.headers.get("authorization") ?? undefined,
        at: Date.now(),
      });
      return fetch(request);
    },
  };
}

/** an answer the proxy gives instead of the service's */
export interface Refusal {
  status: number;
  headers?: Record<string, string>;
}

/**
 * A stand-in for a load balancer in front of the service: every request is recorded, and `refuse` decides
 * which get a 429 or 503 of the proxy's own instead of going through.
 */
export async function startProxy(
  target: string,
  refuse: (request: IncomingMessage, seen: Seen[]) => Refusal | undefined,
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const header = (name: string) => {
      const value = incoming.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    seen.push({
      method: incoming.method ?? "",
      path: incoming.url ?? "",
      requestId: header("x-request-id"),
      authorization: header("authorization"),
      at: Date.now(),
    });
    const refusal = refuse(incoming, seen);
    if (refusal !== undefined) {
      // read the body first, as a balancer would, so the client is not cut off mid-upload
      incoming.resume();
      incoming.on("end", () => {
        outgoing.writeHead(refusal.status, { "content-type": "text/plain", ...refusal.headers });
        outgoing.end(`refused by the proxy (${refusal.status})`);
      });
      return;
    }
    const upstream = forward(
      `${target}${incoming.url}`,
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
