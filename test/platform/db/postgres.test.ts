import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Db } from "../../../src/platform/db/db.js";
import { openPostgres } from "../../../src/platform/db/postgres.js";
import { TEST_DATABASE_URL, uniqueName } from "../../helpers.js";

const skip = TEST_DATABASE_URL === undefined ? "PostgreSQL only: set TEST_DATABASE_URL" : false;

describe("statements sent together to PostgreSQL", { skip }, () => {
  let db: Db;
  const table = uniqueName("batch").replaceAll("-", "_");
  const hostile = ["x'); DROP TABLE t; --", "back\\slash", "E'\\''", "ملف عربي", "%_", null];

  before(async () => {
    // one connection: every statement is prepared on it after its first run, so later ones share messages
    db = await openPostgres(TEST_DATABASE_URL as string, 1);
    await db.exec(
      `CREATE TABLE ${table} (id int PRIMARY KEY, label text, at timestamptz, n bigint, doc jsonb)`,
    );
  });
  after(async () => {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    await db.close();
  });

  const insert = `INSERT INTO ${table} (id, label, at, n, doc) VALUES ($1, $2, $3, $4, $5) RETURNING id`;
  const select = `SELECT id, label, at, n, doc FROM ${table} WHERE id = $1`;

  it("answer each statement of a transaction as it would be answered alone, in the order sent", async () => {
    for (let round = 0; round < 3; round++) {
      const base = round * 100;
      const rows = await db.transaction((tx) =>
        Promise.all(
          hostile.flatMap((label, i) => [
            tx.query<{ id: number }>(insert, [
              base + i,
              label,
              new Date(i * 1000),
              2 ** 40 + i,
              `{"i":${i}}`,
            ]),
            // sent in the same tick as its insert: it sees the row only if the order holds
            tx.query(select, [base + i]),
          ]),
        ),
      );
      for (const [i, label] of hostile.entries()) {
        assert.deepEqual(rows[2 * i], [{ id: base + i }]);
        assert.deepEqual(rows[2 * i + 1], [
          { id: base + i, label, at: new Date(i * 1000), n: 2 ** 40 + i, doc: { i } },
        ]);
      }
    }
  });

  it("roll the whole transaction back when one statement of a message fails, with its error", async () => {
    await db.transaction((tx) => tx.query(insert, [1000, "kept", null, null, null]));
    const failed = await db
      .transaction((tx) =>
        Promise.all([
          tx.query(insert, [1001, "new", null, null, null]),
          tx.query(insert, [1000, "duplicate", null, null, null]),
          tx.query(select, [1001]),
        ]),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.equal((failed as { code?: string }).code, "23505");
    assert.equal((failed as { constraint?: string }).constraint, `${table}_pkey`);
    assert.deepEqual(await db.query(`SELECT id FROM ${table} WHERE id IN (1000, 1001) ORDER BY id`), [
      { id: 1000 },
    ]);
  });

  it("give a literal the type of the parameter it fills, as a bound value's text", async () => {
    const typed = "SELECT $1::jsonb AS doc, $2::text AS label, $3::numeric AS amount, $4::boolean AS flag";
    const values = [7, 8, 1.5, false];
    const alone = await db.transaction((tx) => tx.query(typed, values));
    const together = await db.transaction((tx) =>
      Promise.all([tx.query(typed, values), tx.query(select, [0])]),
    );
    assert.deepEqual(alone, [{ doc: 7, label: "8", amount: "1.5", flag: false }]);
    assert.deepEqual(together[0], alone);
  });

  it("send parameters no literal carries (arrays, bytes) the ordinary way, among the others", async () => {
    const rows = await db.transaction((tx) =>
      Promise.all([
        tx.query<{ ids: number[] }>("SELECT $1::int[] AS ids", [[1, 2, 3]]),
        tx.query<{ bytes: Buffer }>("SELECT $1::bytea AS bytes", [Buffer.from([0, 1, 255])]),
        tx.query(select, [0]),
      ]),
    );
    assert.deepEqual(rows[0], [{ ids: [1, 2, 3] }]);
    assert.deepEqual(rows[1], [{ bytes: Buffer.from([0, 1, 255]) }]);
    assert.equal((rows[2] as { label: string }[])[0]?.label, hostile[0]);
  });

  it("refuse a statement sent after its transaction ended", async () => {
    let late: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(select, [0]);
      setImmediate(() => {
        late = tx.query(select, [0]).then(
          () => "ran",
          (error: unknown) => error,
        );
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(String(await late), /after its transaction ended/);
  });

  it("send reads of one tick outside transactions as one message", async () => {
    const stamp = "SELECT now()::text AS at, $1::int AS n";
    await db.query(stamp, [0]);
    const [first, second] = await Promise.all([
      db.query<{ at: string; n: number }>(stamp, [1]),
      db.query<{ at: string; n: number }>(stamp, [2]),
    ]);
    assert.equal(first[0]?.n, 1);
    assert.equal(second[0]?.n, 2);
    // one message is one implicit transaction: both reads see the same now(); apart they would not
    assert.equal(first[0]?.at, second[0]?.at);
  });

  it("answer each read of a failed message on its own", async () => {
    const divide = "SELECT $1::int / $2::int AS q";
    await db.query(divide, [1, 1]);
    const [good, failing] = await Promise.all([
      db.query(divide, [6, 3]),
      db.query(divide, [1, 0]).then(
        () => undefined,
        (error: unknown) => error,
      ),
    ]);
    assert.deepEqual(good, [{ q: 2 }]);
    assert.equal((failing as { code?: string }).code, "22012");
  });
});
