import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { migrate } from "../../../src/platform/db/migrate.js";
import { openPostgres } from "../../../src/platform/db/postgres.js";
import { openTestDb, TEST_DATABASE_URL } from "../../helpers.js";

const skip = TEST_DATABASE_URL === undefined ? "PostgreSQL only: set TEST_DATABASE_URL" : false;

describe("migrations on an up-to-date database", { skip }, () => {
  it("start a node without waiting for another node migrating", async () => {
    const db = await openTestDb();
    // another node's migrator: it holds the lock every migration's transaction takes
    const other = await openPostgres(TEST_DATABASE_URL as string, 1);
    try {
      await other.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(7240001)");
        const outcome = await Promise.race([
          migrate(db).then((applied) => ({ applied })),
          sleep(3_000).then(() => "waited"),
        ]);
        assert.deepEqual(outcome, { applied: [] });
      });
    } finally {
      await other.close();
      await db.close();
    }
  });
});
