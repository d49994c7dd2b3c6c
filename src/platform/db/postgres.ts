import pg from "pg";
import { type Db, OID, rolledBackAtCommit } from "./db.js";
import { outsideTransactions, transactionOn } from "./postgres-batch.js";

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
    ...outsideTransactions(pool),
    transaction: async (fn) => {
      const conn = await pool.connect();
      // BEGIN goes with the transaction's first statements; one that ran none has nothing to end
      const tx = transactionOn(conn);
      try {
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(tx);
        } catch (error) {
          await tx.end();
          if (tx.begun && tx.ending === "open") await conn.query("ROLLBACK").catch(() => {});
          throw error;
        }
        await tx.end();
        // a COMMIT after a failed statement (one the caller caught) rolls back without an error
        if (tx.begun && tx.ending === "open" && (await conn.query("COMMIT")).command !== "COMMIT")
          throw rolledBackAtCommit();
        if (tx.ending === "rolled back") throw rolledBackAtCommit();
        return result;
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
