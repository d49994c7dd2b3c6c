/**
 * The database floor: one transaction with one insert into a small table (BEGIN; INSERT; COMMIT), p50 and
 * p99 over many in a row and the rate of BENCH_CONNECTIONS callers at once, and the same for a SELECT of one
 * row by key; on a fresh store of the database the server runs on (PGlite on disk in this process, or
 * PostgreSQL). Run by bench/floors.ts as `node --import tsx bench/database-floor.ts <callers>`: it prints
 * the floor as JSON.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { cpuOf } from "./cpu.js";
import { type BenchStore, DATABASE_KIND, freshStore } from "./database.js";
import { percentile } from "./ratios.js";

export interface DatabaseFloor {
  database: "pglite" | "postgres";
  /** one transaction with one insert, back to back on one session */
  insertP50Ms: number;
  insertP99Ms: number;
  /** the same from BENCH_CONNECTIONS callers at once (PGlite's one session takes them in turn) */
  insertsPerSecond: number;
  /** CPU per transaction at that rate, of this process and (PostgreSQL) the database's; off Linux, absent */
  insertCpuMs?: number;
  selectP50Ms: number;
  selectsPerSecond: number;
}

const SERIAL_ITERATIONS = 2_000;
const WARM_UP_ITERATIONS = 200;
const RATE_SECONDS = 3;

/** what the database floor runs: the same statements on PGlite or PostgreSQL */
interface FloorSession {
  insertTransaction(): Promise<void>;
  selectOne(id: number): Promise<void>;
  close(): Promise<void>;
}

const CREATE_TABLE = `CREATE TABLE floor_rows (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;
const INSERT = "INSERT INTO floor_rows (tenant_id, body) VALUES ($1, $2)";
const SELECT = "SELECT id, tenant_id, body, created_at FROM floor_rows WHERE id = $1";
const BODY = JSON.stringify({ transaction_id: "FLOOR-0000000001", status: "COMPLETED", items: [1, 2] });

async function pgliteSession(store: BenchStore): Promise<FloorSession> {
  // on disk, as the server's: its files are part of what a commit costs
  const db = await PGlite.create({ dataDir: `${store.dataDir}/pgdata` });
  await db.exec(CREATE_TABLE);
  return {
    insertTransaction: async () => {
      await db.transaction(async (tx) => {
        await tx.query(INSERT, [1, BODY]);
      });
    },
    selectOne: async (id) => {
      await db.query(SELECT, [id]);
    },
    close: () => db.close(),
  };
}

async function postgresSession(store: BenchStore, connections: number): Promise<FloorSession> {
  const pool = new pg.Pool({ connectionString: store.databaseUrl, max: connections });
  // an idle connection the server ends is told, not a crash; a query's failure still fails the floor
  pool.on("error", (error) => console.error(`the database floor's idle connection: ${error.message}`));
  await pool.query(CREATE_TABLE);
  // named statements, prepared once per connection, as the app's are
  const insert = { name: "floor_insert", text: INSERT, values: [1, BODY] };
  return {
    insertTransaction: async () => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query(insert);
        await client.query("COMMIT");
      } finally {
        client.release();
      }
    },
    selectOne: async (id) => {
      await pool.query({ name: "floor_select", text: SELECT, values: [id] });
    },
    close: () => pool.end(),
  };
}

/** each call's time, sorted, after a warm-up */
async function serialTimes(iterations: number, call: (i: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARM_UP_ITERATIONS; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** calls a second from `callers` callers at once, each calling back to back, and how many calls */
async function rateOf(
  callers: number,
  call: (i: number) => Promise<void>,
): Promise<{ perSecond: number; calls: number }> {
  const started = performance.now();
  const until = started + RATE_SECONDS * 1000;
  let calls = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) await call(calls++);
    }),
  );
  return { perSecond: Math.round(calls / ((performance.now() - started) / 1000)), calls };
}

const thousandths = (ms: number) => Math.round(ms * 1000) / 1000;

async function measureDatabaseFloor(connections: number): Promise<DatabaseFloor> {
  const store = await freshStore("floor");
  const session =
    DATABASE_KIND === "pglite" ? await pgliteSession(store) : await postgresSession(store, connections);
  try {
    const inserts = await serialTimes(SERIAL_ITERATIONS, () => session.insertTransaction());
    const { result: insertRate, cpu: spent } = await cpuOf(process.pid, () =>
      rateOf(connections, () => session.insertTransaction()),
    );
    const rows = SERIAL_ITERATIONS + WARM_UP_ITERATIONS;
    const select = (i: number) => session.selectOne(1 + ((i * 7919) % rows));
    const selects = await serialTimes(SERIAL_ITERATIONS, select);
    return {
      database: DATABASE_KIND,
      insertP50Ms: thousandths(percentile(inserts, 50)),
      insertP99Ms: thousandths(percentile(inserts, 99)),
      insertsPerSecond: insertRate.perSecond,
      ...(spent === undefined ? {} : { insertCpuMs: thousandths((spent * 1000) / insertRate.calls) }),
      selectP50Ms: thousandths(percentile(selects, 50)),
      selectsPerSecond: (await rateOf(connections, select)).perSecond,
    };
  } finally {
    await session.close();
    await store.remove();
  }
}

const callers = Number(process.argv[2] ?? 20);
process.stdout.write(`${JSON.stringify(await measureDatabaseFloor(callers))}\n`);
