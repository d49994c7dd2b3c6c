import { mkdirSync } from "node:fs";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { type Db, OID } from "./db.js";
import { createStatementCache } from "./pglite-statements.js";

const parsers = {
  [OID.int8]: (value: string) => Number(value),
  [OID.numeric]: (value: string) => value,
  [OID.date]: (value: string) => value,
};

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;

/**
 * Embedded PostgreSQL. `dataDir` undefined keeps everything in memory (tests). It counts the writes it
 * runs, for the maintenance that stands in for autovacuum (see maintenance.ts).
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create({ dataDir, parsers });
  let writes = 0;
  const counted = <T>(target: PGlite | Transaction, text: string, params?: readonly unknown[]) => {
    if (WRITE.test(text)) writes++;
    return queryOn<T>(target, text, params);
  };
  const executePrepared = createStatementCache(pg);
  return {
    kind: "pglite",
    writeCount: () => writes,
    // statements outside transactions (the reads) run prepared; inside one, a failing PREPARE would
    // abort the caller's transaction, so those keep the ordinary path
    query: async <T>(text: string, params?: readonly unknown[]) =>
      (params && params.length > 0 && !WRITE.test(text)
        ? await executePrepared<T>(text, params)
        : undefined) ?? counted<T>(pg, text, params),
    exec: async (script) => {
      await pg.exec(script);
    },
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          query: (text, params) => counted(tx, text, params),
          exec: async (script) => {
            await tx.exec(script);
          },
        }),
      ),
    close: () => pg.close(),
  };
}

async function queryOn<T>(
  target: PGlite | Transaction,
  text: string,
  params?: readonly unknown[],
): Promise<T[]> {
  const result = await target.query<T>(text, params as unknown[] | undefined);
  return result.rows;
}
