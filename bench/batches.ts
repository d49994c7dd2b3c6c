/**
 * The batch claims service on its own server over a fresh database, booted once and restarted (so its peak
 * memory is the batch's and a running service's, not the first boot's): a synthetic batch
 * of BENCH_BATCH_CLAIMS claims (default 250,000) x 4 items, generated gzip-compressed beforehand
 * (synthetic/, not timed), uploaded by a client streaming the file, then followed to
 * batch.completed, which a local receiver subscribed to the batch events records.
 * Figures: upload (to the 202) and the JSON it validated per second; upload to batch.completed; the
 * server's RSS before the upload and its peak. docs/architecture.md section 7: 1,000,000 items within 60 s and 2 GB; validation >= 50 MB/s.
 * Floor: the same file gunzipped and each claim parsed in this process (bench/floors.ts), just before the upload.
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { writeBatch } from "../synthetic/index.js";
import { cpuSeconds, cpuSpent } from "./cpu.js";
import { DATABASE_NAME, freshStore } from "./database.js";
import { measureBatchFloor } from "./floors.js";
import { peakRssMb, rssMb } from "./policy-bulk.js";
import { ADMIN_TOKEN, freePort, startServer, stopServer } from "./server.js";

export interface BatchFigure {
  scenario: string;
  claims: number;
  items: number;
  gzipMb: number;
  jsonMb: number;
  uploadSeconds: number;
  validationMbPerSecond: number;
  toCompletedSeconds: number;
  /** the floor: gunzip and JSON.parse of each claim of the same file, in one process */
  floorSeconds: number;
  floorMbPerSecond: number;
  /** CPU seconds of the server (every thread) and the database beside it: to the 202, to batch.completed */
  uploadCpuSeconds?: number;
  toCompletedCpuSeconds?: number;
  /** the server's RSS before the upload (restarted once after its first boot) */
  serverIdleRssMb: number | undefined;
  serverPeakRssMb: number | undefined;
  budget: string;
  outcome: string;
}

const tenths = (seconds: number | undefined) =>
  seconds === undefined ? undefined : Math.round(seconds * 10) / 10;

/** the CPU figures where both were read (Linux) */
const cpuFigures = (upload: number | undefined, toCompleted: number | undefined) =>
  upload === undefined || toCompleted === undefined
    ? {}
    : { uploadCpuSeconds: tenths(upload), toCompletedCpuSeconds: tenths(toCompleted) };

const CLAIMS = Number(process.env.BENCH_BATCH_CLAIMS ?? 250_000);
const MB = 1024 * 1024;

export async function benchBatch(): Promise<BatchFigure> {
  const dir = mkdtempSync(join(tmpdir(), "mizan-bench-batch-"));
  const file = join(dir, "batch.json.gz");
  try {
    const generated = await writeBatch({ claims: CLAIMS, seed: 7 }, { out: file, gzip: true, level: 6 });
    console.log(
      `generated ${generated.claims} claims, ${generated.items} items: ${(generated.bytes / MB).toFixed(0)} MB of JSON, ` +
        `${(generated.written / MB).toFixed(0)} MB gzip, in ${generated.seconds.toFixed(1)} s`,
    );
    const floor = await measureBatchFloor(file);
    if (floor.claims !== generated.claims)
      throw new Error(`the floor parsed ${floor.claims} claims of ${generated.claims}`);
    console.log(`floor: gunzip and parse of each claim in ${floor.seconds.toFixed(1)} s`);
    let completedAt = 0;
    let completedCpu: number | undefined;
    let serverPid: number | undefined;
    let completed: Record<string, unknown> | undefined;
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const event = JSON.parse(Buffer.concat(chunks).toString()) as {
          event_type: string;
          data: Record<string, unknown>;
        };
        if (event.event_type === "batch.completed" || event.event_type === "batch.failed") {
          completedAt = performance.now();
          completedCpu = cpuSeconds(serverPid);
          completed = { event: event.event_type, ...event.data };
        }
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = await freePort();
    const store = await freshStore("batch");
    // booted once and stopped: the peak is a running service's, not the first boot's (initdb's memory stays)
    await stopServer(await startServer(store.dataDir, port, store.env));
    const server = await startServer(store.dataDir, port, store.env);
    try {
      const origin = `http://127.0.0.1:${port}`;
      const tenant = (await (
        await fetch(`${origin}/admin/v1/tenants`, {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "bench-batch" }),
        })
      ).json()) as { client_id: string; client_secret: string };
      const token = (
        (await (
          await fetch(`${origin}/v1/auth/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "client_credentials",
              client_id: tenant.client_id,
              client_secret: tenant.client_secret,
            }),
          })
        ).json()) as { access_token: string }
      ).access_token;
      const auth = { authorization: `Bearer ${token}` };
      await fetch(`${origin}/v1/webhooks/subscribe`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/batch`,
          events: ["batch.completed", "batch.failed"],
        }),
      });
      const idleRssMb = rssMb(server.pid);
      serverPid = server.pid;
      const startCpu = cpuSeconds(serverPid);
      const started = performance.now();
      const upload = await fetch(`${origin}/v1/claims/batch/upload`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
        body: Readable.toWeb(createReadStream(file, { highWaterMark: MB })) as ReadableStream,
        duplex: "half",
      } as RequestInit);
      const accepted = (await upload.json()) as Record<string, unknown>;
      const uploaded = performance.now();
      const uploadCpu = cpuSpent(startCpu, cpuSeconds(serverPid));
      if (upload.status !== 202)
        throw new Error(`upload refused: ${upload.status} ${JSON.stringify(accepted).slice(0, 500)}`);
      const deadline = Date.now() + 600_000;
      while (completed === undefined && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const uploadSeconds = (uploaded - started) / 1000;
      return {
        scenario: `gzip batch upload to batch.completed, fresh database, ${DATABASE_NAME}`,
        claims: generated.claims,
        items: generated.items,
        gzipMb: Math.round(statSync(file).size / MB),
        jsonMb: Math.round(generated.bytes / MB),
        uploadSeconds: Number(uploadSeconds.toFixed(1)),
        validationMbPerSecond: Math.round(generated.bytes / MB / uploadSeconds),
        toCompletedSeconds: Number(((completedAt - started) / 1000).toFixed(1)),
        floorSeconds: Number(floor.seconds.toFixed(3)),
        floorMbPerSecond: Math.round(generated.bytes / MB / floor.seconds),
        ...cpuFigures(uploadCpu, cpuSpent(startCpu, completedCpu)),
        serverIdleRssMb: idleRssMb,
        serverPeakRssMb: peakRssMb(server.pid),
        budget: "1,000,000 items <= 60 s, <= 2 GB; validation >= 50 MB/s",
        outcome: completed === undefined ? "no batch.completed within 10 minutes" : JSON.stringify(completed),
      };
    } finally {
      await stopServer(server);
      await store.remove();
      receiver.closeAllConnections();
      receiver.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
