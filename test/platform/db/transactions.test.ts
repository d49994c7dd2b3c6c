import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Db } from "../../../src/platform/db/db.js";
import { openTestDb, uniqueName } from "../../helpers.js";

describe("a transaction's last step, sent with its COMMIT (either database)", () => {
  let db: Db;
  const table = uniqueName("last_step").replaceAll("-", "_");
  const insert = `INSERT INTO ${table} (id, label) VALUES ($1, $2)`;
  const insertBytes = `INSERT INTO ${table} (id, label, bytes) VALUES ($1, $2, $3)`;
  const ids = async (from: number, to: number) =>
    (
      await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id BETWEEN $1 AND $2 ORDER BY id`, [
        from,
        to,
      ])
    ).map((row) => row.id);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );

  before(async () => {
    db = await openTestDb();
    await db.exec(`CREATE TABLE ${table} (id int PRIMARY KEY, label text, bytes bytea)`);
    // run once outside, so that both statements are prepared and go as shared messages after
    await db.transaction((tx) =>
      Promise.all([tx.query(insert, [0, "first"]), tx.query(insertBytes, [-1, "b", Buffer.from([1])])]),
    );
  });
  after(async () => {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    await db.close();
  });

  it("commits the steps before and the last step's statements, answering each", async () => {
    for (let round = 0; round < 3; round++) {
      const base = 100 + round * 10;
      const answered = await db.transaction(async (tx) => {
        await tx.query(insert, [base, "before"]);
        return tx.commitWith(() =>
          Promise.all([
            tx.query<{ id: number }>(`${insert} RETURNING id`, [base + 1, "last"]),
            tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE id BETWEEN $1 AND $2`, [
              base,
              base + 9,
            ]),
          ]),
        );
      });
      assert.deepEqual(answered, [[{ id: base + 1 }], [{ n: 2 }]]);
      assert.deepEqual(await ids(base, base + 9), [base, base + 1]);
    }
  });

  it("rolls everything back when a statement of the last step fails, with its error", async () => {
    const error = await failure(
      db.transaction(async (tx) => {
        await tx.query(insert, [200, "before"]);
        await tx.commitWith(() =>
          Promise.all([tx.query(insert, [201, "last"]), tx.query(insert, [0, "duplicate"])]),
        );
      }),
    );
    assert.equal(error?.code, "23505");
    assert.deepEqual(await ids(200, 209), []);
  });

  it("commits a last step with a statement that goes alone (bytes), and rolls it back when that one fails", async () => {
    await db.transaction((tx) =>
      tx.commitWith(() =>
        Promise.all([
          tx.query(insert, [300, "shared"]),
          tx.query(insertBytes, [301, "alone", Buffer.from([0, 255])]),
        ]),
      ),
    );
    const [stored] = await db.query<{ bytes: Uint8Array }>(`SELECT bytes FROM ${table} WHERE id = 301`);
    assert.deepEqual([...(stored?.bytes ?? [])], [0, 255]);
    const error = await failure(
      db.transaction((tx) =>
        tx.commitWith(() =>
          Promise.all([
            tx.query(insert, [310, "shared"]),
            tx.query(insertBytes, [0, "duplicate", Buffer.from([1])]),
          ]),
        ),
      ),
    );
    assert.equal(error?.code, "23505");
    assert.deepEqual(await ids(300, 319), [300, 301]);
  });

  it("rolls everything back when the last step's own code fails, its statements sent or not", async () => {
    const thrown = await failure(
      db.transaction(async (tx) => {
        await tx.query(insert, [800, "before"]);
        await tx.commitWith(() =>
          Promise.all([
            tx.query(insert, [801, "last"]),
            (async () => {
              throw new Error("the step's own code failed");
            })(),
          ]),
        );
      }),
    );
    assert.match(String(thrown), /the step's own code failed/);
    const thrownAtOnce = await failure(
      db.transaction(async (tx) => {
        await tx.query(insert, [810, "before"]);
        await tx.commitWith(() => {
          void tx.query(insert, [811, "last"]).catch(() => undefined);
          throw new Error("thrown before any await");
        });
      }),
    );
    assert.match(String(thrownAtOnce), /thrown before any await/);
    assert.deepEqual(await ids(800, 819), []);
  });

  it("commits a transaction whose last step sends nothing, as any other", async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query(insert, [400, "before"]);
      return tx.commitWith(async () => "nothing sent");
    });
    assert.equal(result, "nothing sent");
    assert.deepEqual(await ids(400, 409), [400]);
  });

  it("refuses a statement the last step sends after its first ones: those went with the COMMIT", async () => {
    const error = await failure(
      db.transaction((tx) =>
        tx.commitWith(async () => {
          await tx.query(insert, [500, "with the commit"]);
          await tx.query(insert, [501, "too late"]);
        }),
      ),
    );
    assert.match(String(error), /after its transaction's last step/);
    assert.deepEqual(await ids(500, 509), [500]);
  });

  it("reports as rolled back a transaction whose failed statement the caller caught", async () => {
    const error = await failure(
      db.transaction(async (tx) => {
        await tx.query(insert, [600, "before"]);
        await tx.query(insert, [0, "duplicate"]).catch(() => undefined);
      }),
    );
    assert.match(String(error), /rolled back/);
    assert.deepEqual(await ids(600, 609), []);
  });

  it("keeps transactions sent at once apart, each committing with its last step", async () => {
    const seen = await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        db.transaction(async (tx) => {
          await tx.query(insert, [700 + k, "before"]);
          const [rows] = await tx.commitWith(() =>
            Promise.all([
              tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE id BETWEEN 700 AND 799`),
              tx.query(insert, [750 + k, "last"]),
            ]),
          );
          return rows[0]?.n ?? 0;
        }),
      ),
    );
    // each sees its own row and those of the transactions committed before it, never a later one's
    assert.ok(seen.every((n) => n >= 1 && n <= 19));
    assert.equal((await ids(700, 799)).length, 20);
  });
});
