/**
 * The database the bench's servers and floors run on: PostgreSQL when BENCH_DATABASE_URL (or DATABASE_URL,
 * as `mizan serve` reads it) names one, otherwise embedded PGlite. Each server gets a fresh store, as a
 * fresh data directory is for PGlite: a database of its own on PostgreSQL, dropped when the bench is done.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
export const DATABASE_KIND: "pglite" | "postgres" = POSTGRES_URL === undefined ? "pglite" : "postgres";
export const DATABASE_NAME = DATABASE_KIND === "pglite" ? "embedded PGlite" : "PostgreSQL";

/** where one server keeps its data: the data directory, and the server's environment naming its database */
export interface BenchStore {
  dataDir: string;
  /** PostgreSQL only: the fresh database's URL */
  databaseUrl: string | undefined;
  env: Record<string, string>;
  remove(): Promise<void>;
}

async function onServer<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

let created = 0;

/** a fresh store labelled `label`; keep: leave it behind (BENCH_KEEP) */
export async function freshStore(label: string, keep = false): Promise<BenchStore> {
  const dataDir = mkdtempSync(join(tmpdir(), `mizan-bench-${label}-`));
  const removeDir = () => {
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  };
  if (POSTGRES_URL === undefined)
    return {
      dataDir,
      databaseUrl: undefined,
      env: { DATABASE_URL: "" },
      remove: async () => removeDir(),
    };
  const name = `mizan_bench_${process.pid}_${++created}_${label.replace(/\W/g, "_")}`;
  await onServer(POSTGRES_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    env: { DATABASE_URL: url.toString() },
    remove: async () => {
      removeDir();
      if (!keep)
        await onServer(POSTGRES_URL, (client) => client.query(`DROP DATABASE "${name}" WITH (FORCE)`));
    },
  };
}
