import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { verify } from "../../../src/platform/events/signature.js";

export interface Received {
  /** the path and query string the request was sent to */
  path: string;
  headers: IncomingHttpHeaders;
  /** the raw body, as signed */
  body: string;
  json: { event_type: string; event_id: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

/** how the receiver answers its n-th request (0-based): a status, or "hang" to never answer */
export type Answer = number | "hang" | { status: number; headers?: Record<string, string>; body?: string };

/** a real HTTP server standing in for an insurer's system: it records every request it gets */
export interface Receiver {
  url: string;
  received: Received[];
  /** waits until `count` requests have arrived, or fails after `timeoutMs` */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number) => Answer = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const n = received.length;
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body,
        json: JSON.parse(body),
        at: Date.now(),
      });
      const reply = answer(n);
      if (reply === "hang") return;
      const { status, headers, body: text } = typeof reply === "number" ? { status: reply } : reply;
      response.writeHead(status, headers).end(text ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`the receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await sleep(20);
      }
      return received.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** whether a delivery's Standard Webhooks signature verifies with `secret` */
export function signedWith(secret: string, received: Received): boolean {
  return verify(
    secret,
    {
      id: String(received.headers["webhook-id"]),
      timestamp: String(received.headers["webhook-timestamp"]),
      signature: String(received.headers["webhook-signature"]),
    },
    received.body,
  );
}
