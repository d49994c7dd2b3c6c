import { mkdirSync } from "node:fs";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { type Db, OID, type Queryable } from "./db.js";

const parsers = {
  [OID.int8]: (value: string) => Number(value),
  [OID.numeric]: (value: string) => value,
  [OID.date]: (value: string) => value,
};

/** Embedded PostgreSQL. `dataDir` undefined keeps everything in memory (tests). */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create({ dataDir, parsers });
  return {
    kind: "pglite",
    query: (text, params) => queryOn(pg, text, params),
    exec: async (script) => {
      await pg.exec(script);
    },
    transaction: (fn) => pg.transaction((tx) => fn(wrapTransaction(tx))),
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

function wrapTransaction(tx: Transaction): Queryable {
  return {
    query: (text, params) => queryOn(tx, text, params),
    exec: async (script) => {
      await tx.exec(script);
    },
  };
}
