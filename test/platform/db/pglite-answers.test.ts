import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PGlite, protocol } from "@electric-sql/pglite";
import { UNIQUE_VIOLATION } from "../../../src/platform/db/db.js";
import { openPglite } from "../../../src/platform/db/pglite.js";
import {
  ARRAY_TYPES_SQL,
  type ArrayType,
  COLUMN_PARSERS,
  columnParsers,
  rowsOfAnswer,
} from "../../../src/platform/db/pglite-answers.js";

/** a simple-protocol message's answer as bytes, the way the database's thread takes it, and its pieces */
async function answerOf(pg: PGlite, text: string): Promise<Uint8Array & { pieces: number }> {
  const chunks: Uint8Array[] = [];
  await pg.execProtocolRawStream(protocol.serialize.query(text), {
    onRawData: (data) => void chunks.push(data.slice()),
  });
  return Object.assign(Buffer.concat(chunks), { pieces: chunks.length });
}

describe("the embedded database's answers read from their bytes", () => {
  it("give the rows PGlite's own exec gives, column type by column type, result by result", async () => {
    const pg = await PGlite.create({ parsers: COLUMN_PARSERS });
    try {
      await pg.exec(`CREATE TABLE t (
        id int PRIMARY KEY, small int2, big int8, amount numeric(14,2), ratio float8, label text,
        code varchar(20), day date, at timestamptz, local timestamp, doc jsonb, raw json, yes boolean,
        data bytea, uid uuid, ids int4[], names text[], bigs int8[], days date[])`);
      await pg.exec(`INSERT INTO t VALUES
        (1, 7, 9007199254740991, 1234.50, 0.25, 'نص عربي, "quoted" \\ back', 'A-1', '2026-01-31',
         '2026-01-31T10:00:00Z', '2026-01-31 10:00:00', '{"a": [1, {"b": null}]}', '[1, 2]', true,
         '\\x00ff10', '6f1b1a52-5b4e-4cf5-9a38-7f7f4d0d2f10', '{1,2,3}', '{"a b","c,d",NULL}',
         '{1,9007199254740991}', '{2026-01-01,2026-02-01}'),
        (2, NULL, NULL, NULL, NULL, '', NULL, NULL, NULL, NULL, 'null', NULL, false, '\\x', NULL, '{}',
         NULL, NULL, NULL)`);
      const arrayTypes = (await pg.query<ArrayType>(ARRAY_TYPES_SQL)).rows;
      const parsers = columnParsers(arrayTypes);
      const texts = [
        "SELECT * FROM t ORDER BY id",
        "SELECT * FROM t WHERE id = 3",
        "BEGIN; SELECT id, label AS id FROM t ORDER BY 1; UPDATE t SET small = 8 WHERE id = 1; " +
          "INSERT INTO t (id, label) VALUES (3, 'x') RETURNING id, label, small; COMMIT",
        "SELECT count(*) AS n, sum(amount) AS total, array_agg(id ORDER BY id) AS ids FROM t",
        "SELECT n, repeat('ب', n % 700) AS text FROM generate_series(1, 3000) AS n",
      ];
      for (const text of texts) {
        const expected = (await pg.exec(text)).map((result) => result.rows);
        await pg.exec("DELETE FROM t WHERE id = 3; UPDATE t SET small = 7 WHERE id = 1");
        const read = rowsOfAnswer(await answerOf(pg, text), parsers);
        await pg.exec("DELETE FROM t WHERE id = 3; UPDATE t SET small = 7 WHERE id = 1");
        assert.deepEqual(read, expected, text);
      }
      assert.equal(rowsOfAnswer(await answerOf(pg, "SELECT * FROM t ORDER BY id"), parsers)[0]?.length, 2);
      // a large answer comes in pieces, and a piece ends anywhere, even inside a character
      const large = await answerOf(pg, texts.at(-1) as string);
      assert.ok(large.pieces > 1, `${large.pieces} piece(s)`);
    } finally {
      await pg.close();
    }
  });

  it("keep errors whole and notifications once, whichever path a statement took", async () => {
    const db = await openPglite(undefined);
    try {
      await db.exec("CREATE TABLE u (id int PRIMARY KEY, label text)");
      const heard: string[] = [];
      const unlisten = await db.listen("answers_test", (payload) => heard.push(payload));
      // outside a transaction the notification comes in the statement's own answer
      await db.query("SELECT pg_notify('answers_test', $1)", ["alone"]);
      await db.query("SELECT pg_notify('answers_test', $1)", ["alone again"]);
      // inside one it comes with the COMMIT
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO u VALUES ($1, $2)", [1, "one"]);
        await tx.query("SELECT pg_notify('answers_test', $1)", ["committed"]);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(heard.sort(), ["alone", "alone again", "committed"]);
      await unlisten();

      for (let attempt = 0; attempt < 3; attempt++) {
        const failed = await db
          .transaction(async (tx) => {
            await Promise.all([
              tx.query("SELECT id FROM u WHERE id = $1", [1]),
              tx.query("INSERT INTO u VALUES ($1, $2)", [1, "again"]),
            ]);
          })
          .then(
            () => undefined,
            (error: unknown) => error as { code?: string; constraint?: string },
          );
        assert.equal(failed?.code, UNIQUE_VIOLATION);
        assert.equal(failed?.constraint, "u_pkey");
      }
      assert.deepEqual(await db.query("SELECT id, label FROM u"), [{ id: 1, label: "one" }]);

      // reads sent together outside a transaction share a message; one failing, each gets its own answer
      const quotient = "SELECT 6 / $1::int AS q";
      const reads = await Promise.allSettled([
        db.query(quotient, [2]),
        db.query(quotient, [0]),
        db.query("SELECT label FROM u WHERE id = $1", [1]),
      ]);
      assert.deepEqual(reads[0], { status: "fulfilled", value: [{ q: 3 }] });
      assert.equal(reads[1]?.status === "rejected" && reads[1].reason.code, "22012");
      assert.deepEqual(reads[2], { status: "fulfilled", value: [{ label: "one" }] });
      const large = await db.query<{ n: number; text: string }>(
        "SELECT n, repeat($1, n % 700) AS text FROM generate_series(1, 3000) AS n",
        ["ب"],
      );
      assert.equal(large.length, 3000);
      assert.ok(large.every(({ n, text }) => text === "ب".repeat(n % 700)));
      const bytes = await db.query<{ data: Uint8Array }>("SELECT '\\x0102'::bytea AS data");
      assert.deepEqual([...(bytes[0]?.data ?? [])], [1, 2]);
    } finally {
      await db.close();
    }
  });
});
