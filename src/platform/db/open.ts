import { join } from "node:path";
import type { Db } from "./db.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";

/**
 * DATABASE_URL selects PostgreSQL; otherwise PGlite keeps its files in `<dataDir>/pgdata`, starting from
 * `startFrom` (an embedded database's snapshot) when given
 */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string | undefined;
  startFrom?: Uint8Array;
}): Promise<Db> {
  if (options.databaseUrl !== undefined) return openPostgres(options.databaseUrl);
  const dataDir = options.dataDir === undefined ? undefined : join(options.dataDir, "pgdata");
  return openPglite(dataDir, options.startFrom);
}
