/**
 * `npm run bench`: the figures of docs/architecture.md section 7, measured against a real `mizan serve`
 * process (the built dist/, a fresh database) over loopback HTTP with autocannon on the same machine, then
 * the bulk patient imports, webhook deliveries and the claims batch. Absolute figures move two- to
 * three-fold between machines and days, so each is printed beside the machine's floor measured in the same
 * run (bench/floors.ts: a bare Fastify route validating the same request, one database transaction with one
 * insert, a gunzip and parse of the batch) and as a ratio to it (bench/report.ts); the last line is the
 * run as JSON.
 * Environment: BENCH_SECONDS (default 10) per scenario, BENCH_CONNECTIONS (default 20), BENCH_ONLY (a
 * comma-separated choice of http, prior-auth, fhir, bulk, webhooks, batch; default all), BENCH_BATCH_CLAIMS
 * (default 250,000 claims of 4 items), BENCH_WEBHOOK_EVENTS (default 5,000), BENCH_DATABASE_URL (or
 * DATABASE_URL): PostgreSQL for the servers and the database floor, a fresh database each (bench/database.ts).
 */
import { loadavg } from "node:os";
import { CORES } from "./cpu.js";
import { DATABASE_NAME, freshStore } from "./database.js";
import { benchFhir } from "./fhir.js";
import type { Figure } from "./figures.js";
import { createFloors, type Floors } from "./floors.js";
import { benchHttp } from "./http.js";
import { benchBulkImports, peakRssMb } from "./policy-bulk.js";
import { benchPriorAuth } from "./prior-auth.js";
import { type RatioRow, ratioSummary, ratioTable } from "./ratios.js";
import { batchRows, fhirRows, httpRows, priorAuthRows, webhookRows } from "./report.js";
import { ADMIN_TOKEN, API_KEY, buildOnce, freePort, startServer, stopServer, TENANT } from "./server.js";
import { benchWebhookDeliveries, benchWebhookDrain } from "./webhooks.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const FHIR_REQUESTS = 500;
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
    })),
  );
}

/** each part's rows against the floors, printed as the part ends; the figures, for the closing JSON line */
function createReport() {
  const rows: RatioRow[] = [];
  const figures: Record<string, unknown> = {};
  return {
    rows,
    figures,
    add(title: string, partRows: RatioRow[]) {
      const load = loadavg()[0]?.toFixed(2);
      console.log(
        `\n${title} beside the machine's floors, this run (load ${load}):\n\n${ratioTable(partRows)}`,
      );
      rows.push(...partRows);
    },
  };
}
type Report = ReturnType<typeof createReport>;

const SERVER_PARTS = ["http", "prior-auth", "fhir", "bulk", "webhooks"];

/** the parts that share one server and its tenants */
async function benchOnServer(floors: Floors, report: Report): Promise<void> {
  const port = await freePort();
  const store = await freshStore("server", Boolean(process.env.BENCH_KEEP));
  const server = await startServer(store.dataDir, port, store.env);
  const base = `http://127.0.0.1:${port}/${TENANT}/v4.0/health`;
  const headers = { "access-key": API_KEY, "content-type": "application/json" };
  const options = { seconds: SECONDS, connections: CONNECTIONS };
  const { figures } = report;
  try {
    if (ONLY.has("http")) {
      const http = await benchHttp(port, base, headers, options);
      printFigures([...http.reads, http.memberCreate]);
      const [findAll, memberCreate, db] = [
        await floors.findAll(),
        await floors.memberCreate(),
        await floors.database(),
      ];
      report.add("Reads and member create", httpRows(http, { findAll, memberCreate, db }, CONNECTIONS));
      figures.http = http;
    }
    if (ONLY.has("prior-auth")) {
      const priorAuth = await benchPriorAuth(port, ADMIN_TOKEN, { ...options, serverPid: server.pid });
      console.log(`\nPrior authorization (same server, ${DATABASE_NAME}):\n`);
      const { lightweight, standard } = priorAuth;
      printFigures([lightweight.many, standard.many, lightweight.one, standard.one]);
      const [route, db] = [await floors.priorAuthCreate(), await floors.database()];
      report.add("Prior-authorization creates", priorAuthRows(priorAuth, { route, db }, CONNECTIONS));
      figures.priorAuth = priorAuth;
    }
    if (ONLY.has("fhir")) {
      const fhir = await benchFhir(port, ADMIN_TOKEN, FHIR_REQUESTS);
      console.log(`\nNPHIES FHIR over the JSON create (same server, ${DATABASE_NAME}):\n`);
      console.table([fhir]);
      report.add("NPHIES FHIR", fhirRows(fhir, { fhir: await floors.fhir(), db: await floors.database() }));
      figures.fhir = fhir;
    }
    if (ONLY.has("bulk")) {
      const bulk = await benchBulkImports(base, headers);
      console.log(`\nBulk patient imports (same server, ${DATABASE_NAME}; no floor yet):\n`);
      console.table(bulk);
      figures.bulk = bulk;
    }
    if (ONLY.has("webhooks")) {
      const webhooks = [await benchWebhookDeliveries(base, headers), await benchWebhookDrain()];
      console.log(`\nWebhook deliveries (${DATABASE_NAME}):\n`);
      console.table(webhooks);
      const [asks, db] = [await floors.webhookAsks(), await floors.database()];
      report.add("Webhooks", webhookRows(webhooks, { asks, db }, CONNECTIONS));
      figures.webhooks = webhooks;
    }
    figures.serverPeakRssMb = peakRssMb(server.pid);
    console.log(`server peak RSS: ${figures.serverPeakRssMb ?? "unknown"} MB`);
  } finally {
    await stopServer(server);
    await store.remove();
  }
}

async function main(): Promise<void> {
  buildOnce();
  const load = loadavg().map((average) => average.toFixed(2));
  console.log(
    `\nMizan benchmarks: ${CORES} cores (load ${load.join(" ")}), Node ${process.version}, ` +
      `${DATABASE_NAME}, ${CONNECTIONS} concurrent clients, ${SECONDS} s per scenario, LOG_LEVEL=warn\n` +
      "ratio: the figure over its floor, both from this run; goal (ratio): the ratio the figure should reach; budget: the absolute " +
      "one (docs/architecture.md section 7; the FHIR message's added 1 ms)\n",
  );
  const floors = createFloors({ seconds: SECONDS, connections: CONNECTIONS, fhirRequests: FHIR_REQUESTS });
  const report = createReport();
  try {
    if (SERVER_PARTS.some((part) => ONLY.has(part))) await benchOnServer(floors, report);
    if (ONLY.has("batch")) {
      // loaded only when chosen: the batch generator is a package of its own
      const { benchBatch } = await import("./batches.js");
      const batch = await benchBatch();
      console.log(`\nClaims batch (its own fresh server, ${DATABASE_NAME}):\n`);
      console.table([batch]);
      report.add("Claims batch", batchRows(batch));
      report.figures.batch = batch;
    }
    const run = { bench: "mizan", database: DATABASE_NAME, cores: CORES, load, ...report.figures };
    console.log(
      `\n${JSON.stringify({ ...run, floors: await floors.all(), ratios: ratioSummary(report.rows) })}`,
    );
  } finally {
    await floors.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
