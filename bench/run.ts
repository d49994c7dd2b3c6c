/**
 * `npm run bench`: the figures of docs/architecture.md section 7 that exist so far, measured against a real
 * `mizan serve` process (the built dist/, embedded PGlite in a fresh data directory) over loopback HTTP,
 * with autocannon on the same machine.
 * Then the bulk patient imports (bench/policy-bulk.ts) and webhook deliveries (bench/webhooks.ts) on the
 * same server.
 * Environment: BENCH_SECONDS (default 10) per scenario, BENCH_CONNECTIONS (default 20), BENCH_ONLY (a
 * comma-separated choice of http, prior-auth, fhir, bulk, webhooks, batch; default all), BENCH_BATCH_CLAIMS
 * (default 250,000 claims of 4 items).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { benchBatch } from "./batches.js";
import { benchFhir } from "./fhir.js";
import { type Figure, figure } from "./figures.js";
import { benchBulkImports, peakRssMb } from "./policy-bulk.js";
import { benchPriorAuth } from "./prior-auth.js";
import { ADMIN_TOKEN, API_KEY, buildOnce, freePort, startServer, stopServer, TENANT } from "./server.js";
import { benchWebhookDeliveries, benchWebhookDrain } from "./webhooks.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ONLY = new Set((process.env.BENCH_ONLY ?? "http,prior-auth,fhir,bulk,webhooks,batch").split(","));

function printFigures(figures: readonly Figure[]): void {
  console.table(
    figures.map((f) => ({
      scenario: f.scenario,
      "req/s": f.requestsPerSecond,
      "p50 ms": f.p50Ms,
      "p99 ms": f.p99Ms,
      "max ms": f.maxMs,
      requests: f.total,
      failures: f.failures,
      budget: f.budget,
    })),
  );
}

/** the HTTP scenarios: network find-all over a large and a small tenant, and member create */
async function benchHttp(port: number, base: string, headers: Record<string, string>): Promise<Figure[]> {
  // a large table (1,000 networks, a fifth VIP) in one tenant, a typical one (50) in another
  const small = (await (
    await fetch(`http://127.0.0.1:${port}/admin/v1/tenants`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench-small" }),
    })
  ).json()) as { api_key: string };
  const smallBase = `http://127.0.0.1:${port}/bench-small/v4.0/health`;
  const smallHeaders = { "access-key": small.api_key, "content-type": "application/json" };
  for (const [url, hdrs, count] of [
    [base, headers, 1000],
    [smallBase, smallHeaders, 50],
  ] as const) {
    for (let i = 0; i < count; i++) {
      await fetch(`${url}/network/create`, {
        method: "POST",
        headers: hdrs,
        body: JSON.stringify({ name: `Network ${String(i).padStart(4, "0")}`, is_vip: i % 5 === 0 }),
      });
    }
  }
  // the embedded database's maintenance analyzes new data within seconds, as it would in service
  await sleep(7000);
  const figures: Figure[] = [];

  for (const [label, url, hdrs, query] of [
    ["GET network/find-all (first page of 1,000)", base, headers, "limit=10&skip=0"],
    ["GET network/find-all (name filter over 1,000)", base, headers, "name=network%2001&limit=10&skip=0"],
    [
      "GET network/find-all (name filter over 50)",
      smallBase,
      smallHeaders,
      "name=network%2001&limit=10&skip=0",
    ],
  ] as const) {
    const findAll = await autocannon({
      url: `${url}/network/find-all?${query}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: hdrs,
    });
    figures.push(figure(label, findAll, ">= 2,000 req/s", "200"));
  }

  let sequence = 0;
  const create = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    requests: [
      {
        method: "POST",
        path: `/${TENANT}/v4.0/health/member/create`,
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            member_id: `BENCH-${process.pid}-${sequence++}`,
            national_id: "1012345678",
            gender: sequence % 2 ? "MALE" : "FEMALE",
            marital_status: "MARRIED",
            date_of_birth: "1985-06-15T00:00:00.000Z",
            name: "Bench Member",
            email: "member@example.sa",
          }),
        }),
      },
    ],
  });
  figures.push(figure("POST member/create (unique members)", create, "none set yet", "201"));

  console.log(
    `\nMizan benchmarks: ${cpus().length} cores, Node ${process.version}, embedded PGlite, ` +
      `${CONNECTIONS} concurrent clients, ${SECONDS} s per scenario, LOG_LEVEL=warn\n`,
  );
  printFigures(figures);
  return figures;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-"));
  const port = await freePort();
  buildOnce();
  const server = await startServer(dataDir, port);
  const base = `http://127.0.0.1:${port}/${TENANT}/v4.0/health`;
  const headers = { "access-key": API_KEY, "content-type": "application/json" };
  try {
    const figures = ONLY.has("http") ? await benchHttp(port, base, headers) : [];
    if (ONLY.has("prior-auth")) {
      const priorAuth = await benchPriorAuth(port, ADMIN_TOKEN, {
        seconds: SECONDS,
        connections: CONNECTIONS,
      });
      console.log("\nPrior authorization (same server, embedded PGlite):\n");
      printFigures(priorAuth);
      figures.push(...priorAuth);
    }
    const fhir = ONLY.has("fhir") ? await benchFhir(port, ADMIN_TOKEN, 500) : undefined;
    if (fhir !== undefined) {
      console.log("\nNPHIES FHIR over the JSON create (same server, embedded PGlite):\n");
      console.table([fhir]);
    }
    const bulk = ONLY.has("bulk") ? await benchBulkImports(base, headers) : [];
    if (bulk.length > 0) {
      console.log("\nBulk patient imports (same server, embedded PGlite):\n");
      console.table(bulk);
    }
    const webhooks = ONLY.has("webhooks")
      ? [await benchWebhookDeliveries(base, headers), await benchWebhookDrain()]
      : [];
    if (webhooks.length > 0) {
      console.log("\nWebhook deliveries (same server, embedded PGlite):\n");
      console.table(webhooks);
    }
    console.log(`server peak RSS: ${peakRssMb(server.pid) ?? "unknown"} MB`);
    const batch = ONLY.has("batch") ? await benchBatch() : undefined;
    if (batch !== undefined) {
      console.log("\nClaims batch (its own fresh server, embedded PGlite):\n");
      console.table([batch]);
    }
    console.log(
      `\n${JSON.stringify({ bench: "http", figures, fhir, bulk, webhooks, batch, serverPeakRssMb: peakRssMb(server.pid) })}`,
    );
  } finally {
    await stopServer(server);
    if (!process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
