import { createHash } from "node:crypto";
import pg from "pg";
import { type Db, OID, type Queryable } from "./db.js";

const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === OID.int8) return (value: string) => Number(value);
    if (oid === OID.numeric || oid === OID.date) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/**
 * A parameterized statement as a named one: `pg` prepares it once per connection and then only binds,
 * so PostgreSQL does not parse and plan the same text again. Scripts without parameters go as they are.
 */
const names = new Map<string, string>();
function statementOf(text: string, params: readonly unknown[] | undefined) {
  if (params === undefined || params.length === 0) return { text };
  let name = names.get(text);
  if (name === undefined) {
    name = `m_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    if (names.size < 5_000) names.set(text, name);
  }
  return { name, text, values: params as unknown[] };
}

export async function openPostgres(connectionString: string, poolSize = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize, types: types as pg.CustomTypesConfig });
  // an idle client that loses its connection must not crash the process; the next query reconnects
  pool.on("error", () => {});
  const client = await pool.connect(); // fail at boot, not at the first request, when the URL is wrong
  client.release();
  return {
    kind: "postgres",
    query: async (text, params) => (await pool.query(statementOf(text, params))).rows,
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
    listen: (channel, onPayload) => listenOn(connectionString, channel, onPayload),
    close: () => pool.end(),
  };
}

/** a connection of its own that LISTENs, and connects again a second after it is lost */
async function listenOn(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | undefined;
  let closed = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on("notification", (message) => {
      if (message.channel === channel) onPayload(message.payload ?? "");
    });
    next.on("error", () => {
      next.end().catch(() => {});
      if (!closed) setTimeout(() => connect().catch(() => {}), 1_000).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    client = next;
  };
  await connect();
  return async () => {
    closed = true;
    await client?.end();
  };
}

function onClient(conn: pg.PoolClient): Queryable {
  return {
    query: async (text, params) => (await conn.query(statementOf(text, params))).rows,
    exec: async (script) => {
      await conn.query(script);
    },
  };
}
