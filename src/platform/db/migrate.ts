import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./db.js";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");
/** any constant: serializes migrators of several nodes starting at once on one PostgreSQL */
const MIGRATION_LOCK = 7_240_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith(".sql")).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!match) throw new Error(`migration file name must look like 0001_name.sql: ${file}`);
    migrations.push({
      version: Number(match[1]),
      name: match[2] as string,
      sql: await readFile(join(dir, file), "utf8"),
    });
  }
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new Error(`migration ${index + 1} is missing (found ${migration.version})`);
  });
  return migrations;
}

/**
 * Applies pending migrations, forward only, each in its own transaction together with its record, so a
 * failed migration leaves no half-applied schema. Returns the versions it applied.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<number[]> {
  const all = migrations ?? (await loadMigrations());
  const recorded = await recordedVersions(db);
  const applied: number[] = [];
  for (const migration of all.filter((candidate) => !recorded.has(candidate.version))) {
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      // created under the lock: two nodes creating it at once would collide
      await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const existing = await tx.query("SELECT 1 FROM schema_migrations WHERE version = $1", [
        migration.version,
      ]);
      if (existing.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/**
 * The versions already recorded, read without the lock: a node starting on an up-to-date database neither
 * waits for the lock nor spends a transaction per migration (40 of them took 0.3 s on the embedded one).
 * A migration not recorded here is checked again under the lock, where another node may just have run it.
 */
async function recordedVersions(db: Db): Promise<Set<number>> {
  const [table] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (table?.present !== true) return new Set();
  const rows = await db.query<{ version: number }>("SELECT version FROM schema_migrations");
  return new Set(rows.map((row) => row.version));
}
