import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { freshStore } from "./database.js";
import { percentile } from "./ratios.js";
import { API_KEY, freePort, startServer, stopServer, TENANT } from "./server.js";

export interface WebhookFigure {
  scenario: string;
  events: number;
  seconds: number;
  deliveriesPerSecond: number;
  /** the rate at which the API accepted the clients' asks */
  askedPerSecond: number | null;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
  outcome: string;
}

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
const CLIENTS = 20;
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** a lag percentile in whole milliseconds; 0 when nothing arrived */
const lagAt = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : Math.round(percentile(sorted, p));

/** a receiver that notes when each event id arrived */
async function startCountingReceiver() {
  const arrived = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      arrived.set(String(request.headers["webhook-id"]), performance.now());
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrived,
    async waitFor(count: number, timeoutMs = 300_000) {
      const deadline = performance.now() + timeoutMs;
      while (arrived.size < count && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function registerWebhook(base: string, headers: Record<string, string>, url: string): Promise<number> {
  const created = await fetch(`${base}/webhook/create`, {
    method: "POST",
    headers,
    body: JSON.stringify({ webhook_url: url, hook_type: "POLICY", secret_token: SECRET }),
  });
  if (created.status !== 201) throw new Error(`webhook/create answered ${created.status}`);
  return ((await created.json()) as { id: number }).id;
}

/** asks for EVENTS test events from CLIENTS concurrent clients; returns when each was accepted */
export async function askForEvents(base: string, headers: Record<string, string>, webhookId: number) {
  const { "content-type": _json, ...noBody } = headers;
  const accepted = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < EVENTS) {
        next++;
        const res = await fetch(`${base}/webhook/${webhookId}/test`, { method: "POST", headers: noBody });
        const { event_id } = (await res.json()) as { event_id: string };
        accepted.set(event_id, performance.now());
      }
    }),
  );
  return accepted;
}

export async function benchWebhookDeliveries(
  base: string,
  headers: Record<string, string>,
): Promise<WebhookFigure> {
  const receiver = await startCountingReceiver();
  try {
    const webhookId = await registerWebhook(base, headers, receiver.url);
    const started = performance.now();
    const accepted = await askForEvents(base, headers, webhookId);
    const askedPerSecond = Math.round(EVENTS / ((performance.now() - started) / 1000));
    await receiver.waitFor(EVENTS);
    const lags = [...accepted].flatMap(([event, at]) => {
      const got = receiver.arrived.get(event);
      return got === undefined ? [] : [got - at];
    });
    lags.sort((a, b) => a - b);
    const seconds = (Math.max(...receiver.arrived.values()) - started) / 1000;
    return {
      scenario: `live: ${CLIENTS} clients ask for events while they are delivered`,
      events: EVENTS,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(receiver.arrived.size / seconds),
      askedPerSecond,
      lagP50Ms: lagAt(lags, 50),
      lagP99Ms: lagAt(lags, 99),
      outcome: `${receiver.arrived.size} of ${EVENTS} delivered; events asked for at ${askedPerSecond}/s`,
    };
  } finally {
    receiver.close();
  }
}

export async function benchWebhookDrain(): Promise<WebhookFigure> {
  const store = await freshStore("webhooks");
  const receiver = await startCountingReceiver();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/${TENANT}/v4.0/health`;
  const headers = { "access-key": API_KEY, "content-type": "application/json" };
  try {
    const apiOnly = await startServer(store.dataDir, port, { ...store.env, MIZAN_WORKERS: "0" });
    try {
      const webhookId = await registerWebhook(base, headers, receiver.url);
      await askForEvents(base, headers, webhookId);
    } finally {
      await stopServer(apiOnly);
    }
    const worker = await startServer(store.dataDir, port, store.env);
    try {
      await receiver.waitFor(EVENTS);
    } finally {
      await stopServer(worker);
    }
    const times = [...receiver.arrived.values()];
    const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
    return {
      scenario: "drain: events queued by an API-only node, then delivered by a server with workers",
      events: EVENTS,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round((receiver.arrived.size - 1) / seconds),
      askedPerSecond: null,
      lagP50Ms: null,
      lagP99Ms: null,
      outcome: `${receiver.arrived.size} of ${EVENTS} delivered, first arrival to last`,
    };
  } finally {
    receiver.close();
    await store.remove();
  }
}
