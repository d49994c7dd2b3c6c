import { join } from "node:path";
import type { Db } from "./db.js";
import { openPostgres } from "./postgres.js";

/**
 * DATABASE_URL selects PostgreSQL; otherwise PGlite keeps its files in `<dataDir>/pgdata`, starting from
 * `startFrom` (an embedded database's snapshot) when given. The embedded database's code is loaded only
 * when chosen (PGlite's JavaScript, which reads its answers, is some 6 MB of a PostgreSQL node's memory).
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string | undefined;
  startFrom?: Uint8Array;
}): Promise<Db> {
  if (options.databaseUrl !== undefined) return openPostgres(options.databaseUrl);
  const dataDir = options.dataDir === undefined ? undefined : join(options.dataDir, "pgdata");
  const { openPglite } = await import("./pglite.js");
  return openPglite(dataDir, options.startFrom);
}
