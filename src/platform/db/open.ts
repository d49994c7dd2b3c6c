import { join } from "node:path";
import type { Db } from "./db.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";

/** DATABASE_URL selects PostgreSQL; otherwise PGlite keeps its files in `<dataDir>/pgdata` */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string | undefined;
}): Promise<Db> {
  if (options.databaseUrl !== undefined) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir === undefined ? undefined : join(options.dataDir, "pgdata"));
}
