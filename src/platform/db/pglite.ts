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
  const statements = createStatementCache(pg);
  /**
   * Reads outside transactions run prepared. Inside transactions, statements prepared already run
   * prepared, and those run repeatedly are prepared after the transaction (see the statement cache).
   * Writes outside transactions keep the ordinary path.
   */
  const run = async <T>(target: PGlite | Transaction, text: string, params?: readonly unknown[]) => {
    const write = WRITE.test(text);
    if (write) writes++;
    if (params !== undefined && params.length > 0) {
      const rows =
        target !== pg
          ? await statements.executeInTransaction<T>(target, text, params)
          : write
            ? undefined
            : await statements.executePrepared<T>(text, params);
      if (rows !== undefined) return rows;
    }
    return (await target.query<T>(text, params as unknown[] | undefined)).rows;
  };
  return {
    kind: "pglite",
    embedded: pg,
    writeCount: () => writes,
    query: (text, params) => run(pg, text, params),
    exec: async (script) => {
      await pg.exec(script);
    },
    transaction: async (fn) => {
      try {
        return await pg.transaction((tx) =>
          fn({
            query: (text, params) => run(tx, text, params),
            exec: async (script) => {
              await tx.exec(script);
            },
          }),
        );
      } finally {
        await statements.prepareSeen();
      }
    },
    listen: async (channel, onPayload) => {
      const unlisten = await pg.listen(channel, onPayload);
      // a database closed first has no listeners left to remove
      return async () => (pg.closed ? undefined : unlisten());
    },
    close: () => pg.close(),
  };
}
