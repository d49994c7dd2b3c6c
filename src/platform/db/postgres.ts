import pg from "pg";
import { type Db, OID, type Queryable } from "./db.js";

const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === OID.int8) return (value: string) => Number(value);
    if (oid === OID.numeric || oid === OID.date) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as "text");
  },
};

export async function openPostgres(connectionString: string, poolSize = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize, types: types as pg.CustomTypesConfig });
  // an idle client that loses its connection must not crash the process; the next query reconnects
  pool.on("error", () => {});
  const client = await pool.connect(); // fail at boot, not at the first request, when the URL is wrong
  client.release();
  return {
    kind: "postgres",
    query: async (text, params) => (await pool.query(text, params as unknown[] | undefined)).rows,
    exec: async (script) => {
      await pool.query(script);
    },
    transaction: async (fn) => {
      const conn = await pool.connect();
      try {
        await conn.query("BEGIN");
        const result = await fn(onClient(conn));
        await conn.query("COMMIT");
        return result;
      } catch (error) {
        await conn.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}

function onClient(conn: pg.PoolClient): Queryable {
  return {
    query: async (text, params) => (await conn.query(text, params as unknown[] | undefined)).rows,
    exec: async (script) => {
      await conn.query(script);
    },
  };
}
