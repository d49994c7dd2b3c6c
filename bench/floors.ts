/**
 * The machine's floors, measured in the same run as the figures they stand beside (bench/ratios.ts):
 * - HTTP: the bench's own drivers against bench/floor-server.ts (a bare Fastify validating the same
 *   requests with the app's schemas), with the same autocannon settings as the figures;
 * - database: one transaction with one insert into a small table (BEGIN; INSERT; COMMIT) and a SELECT of
 *   one row by key, on the database the server runs on (bench/database-floor.ts, a process of its own);
 * - batch: the upload's file gunzipped as a stream and each claim parsed, in this process.
 * Each is measured once, the first time a figure needs it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import type { DatabaseFloor } from "./database-floor.js";
import { alternate } from "./fhir.js";
import { type Figure, figure } from "./figures.js";
import { driveFindAll, driveMemberCreate, FIRST_PAGE } from "./http.js";
import { driveCreate } from "./prior-auth.js";
import { API_KEY, freePort, stopServer, TENANT, untilReady } from "./server.js";
import { askForEvents } from "./webhooks.js";

/** a route's floor with BENCH_CONNECTIONS clients, and with one where the figure has one */
export interface RouteFloor {
  many: Figure;
  one: Figure | undefined;
}

export interface FhirFloor {
  jsonP50Ms: number;
  fhirP50Ms: number;
  addedP50Ms: number;
}

export interface BatchFloor {
  seconds: number;
  claims: number;
  jsonBytes: number;
}

/** the floors of one run; each measured on first use */
export type Floors = ReturnType<typeof createFloors>;

export function createFloors(options: { seconds: number; connections: number; fhirRequests: number }) {
  const { seconds, connections } = options;
  let server: Promise<{ child: ChildProcess; port: number }> | undefined;
  const apiBase = async () => {
    server ??= startFloorServer();
    return `http://127.0.0.1:${(await server).port}/${TENANT}/v4.0/health`;
  };
  const headers = { "access-key": API_KEY, "content-type": "application/json" };
  const measured = new Map<string, Promise<unknown>>();
  const once =
    <T>(name: string, measure: () => Promise<T>) =>
    (): Promise<T> => {
      if (!measured.has(name)) measured.set(name, measure());
      return measured.get(name) as Promise<T>;
    };
  return {
    priorAuthCreate: once("priorAuthCreate", async (): Promise<RouteFloor> => {
      const base = await apiBase();
      await driveCreate(base, headers, 2, connections); // warm-up, as the figures have
      const many = await driveCreate(base, headers, seconds, connections);
      const one = await driveCreate(base, headers, seconds, 1);
      return {
        many: figure("floor: approval-request/create", many, "", "201"),
        one: figure("floor: approval-request/create, one client", one, "", "201"),
      };
    }),
    memberCreate: once("memberCreate", async (): Promise<RouteFloor> => {
      const base = await apiBase();
      await driveMemberCreate(base, headers, 2, connections);
      const many = await driveMemberCreate(base, headers, seconds, connections);
      return { many: figure("floor: member/create", many, "", "201"), one: undefined };
    }),
    findAll: once("findAll", async (): Promise<RouteFloor> => {
      const base = await apiBase();
      await driveFindAll(base, headers, FIRST_PAGE, 2, connections);
      const many = await driveFindAll(base, headers, FIRST_PAGE, seconds, connections);
      return { many: figure("floor: network/find-all", many, "", "200"), one: undefined };
    }),
    fhir: once("fhir", async (): Promise<FhirFloor> => {
      const base = (await apiBase()).replace(/\/v4\.0\/health$/, "");
      return alternate(base, API_KEY, options.fhirRequests);
    }),
    /** events/s the bare route accepts from the webhook bench's clients */
    webhookAsks: once("webhookAsks", async (): Promise<number> => {
      const base = await apiBase();
      const started = performance.now();
      const accepted = await askForEvents(base, headers, 1);
      return Math.round(accepted.size / ((performance.now() - started) / 1000));
    }),
    database: once("database", () => measureDatabaseFloorApart(connections)),
    /** the floors this run has measured, by name */
    async all(): Promise<Record<string, unknown>> {
      return Object.fromEntries(
        await Promise.all([...measured].map(async ([name, floor]) => [name, await floor] as const)),
      );
    },
    async close(): Promise<void> {
      if (server === undefined) return;
      await stopServer((await server).child);
    },
  };
}

/** in a process of its own, as the server's database is: PGlite's work would hold this process's event loop */
async function measureDatabaseFloorApart(connections: number): Promise<DatabaseFloor> {
  const entry = fileURLToPath(new URL("./database-floor.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", entry, String(connections)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the database floor exited with ${code}`);
  // the last line: anything the database says before it is not the floor
  return JSON.parse(output.trim().split("\n").at(-1) ?? "") as DatabaseFloor;
}

async function startFloorServer(): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const entry = fileURLToPath(new URL("./floor-server.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, FLOOR_PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await untilReady(child, `http://127.0.0.1:${port}/ready`, "the floor server");
  return { child, port };
}

const CLAIMS_START = Buffer.from('"claims":[');
// the generator writes each claim with claim_id first and no whitespace between claims
const BETWEEN_CLAIMS = Buffer.from('},{"claim_id":');

/** gunzip as a stream (the upload's chunk size) and JSON.parse of each claim: what an upload cannot do without */
export async function measureBatchFloor(file: string): Promise<BatchFloor> {
  const started = performance.now();
  let claims = 0;
  let jsonBytes = 0;
  let carry: Buffer = Buffer.alloc(0);
  let inClaims = false;
  const gunzipped = createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(
    createGunzip({ chunkSize: 256 * 1024 }),
  );
  for await (const chunk of gunzipped as AsyncIterable<Buffer>) {
    jsonBytes += chunk.length;
    const buffer = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    if (!inClaims) {
      const at = buffer.indexOf(CLAIMS_START);
      if (at < 0) {
        carry = buffer;
        continue;
      }
      start = at + CLAIMS_START.length;
      inClaims = true;
    }
    for (
      let at = buffer.indexOf(BETWEEN_CLAIMS, start);
      at >= 0;
      at = buffer.indexOf(BETWEEN_CLAIMS, start)
    ) {
      JSON.parse(buffer.toString("utf8", start, at + 1));
      claims++;
      start = at + 2;
    }
    carry = buffer.subarray(start);
  }
  const end = carry.lastIndexOf("]}");
  if (end > 0) {
    JSON.parse(carry.toString("utf8", 0, end));
    claims++;
  }
  return { seconds: (performance.now() - started) / 1000, claims, jsonBytes };
}
