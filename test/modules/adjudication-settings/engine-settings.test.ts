import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ENGINE_SETTINGS_CHANNEL } from "../../../src/modules/adjudication-settings/engine-settings.js";
import type { Db } from "../../../src/platform/db/db.js";
import { startAppWithListener, type TestContext } from "../../helpers.js";

/** waits until `got` holds `count` payloads, or a little longer to show that nothing more arrives */
async function settle(got: string[], count: number, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (got.length < count && Date.now() < deadline) await sleep(20);
  await sleep(100);
}

describe("announcements between nodes (LISTEN/NOTIFY)", () => {
  let ctx: TestContext;
  let listener: Db;
  let close: () => Promise<void>;
  before(async () => {
    ({ ctx, listener, close } = await startAppWithListener());
  });
  after(() => close());

  it("delivers a notice once its transaction commits, and none from one rolled back", async () => {
    const got: string[] = [];
    const stop = await listener.listen("mizan_test_notices", (payload) => got.push(payload));
    try {
      await ctx.db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify($1, $2)", ["mizan_test_notices", "committed"]);
      });
      await ctx.db
        .transaction(async (tx) => {
          await tx.query("SELECT pg_notify($1, $2)", ["mizan_test_notices", "rolled back"]);
          throw new Error("roll back");
        })
        .catch(() => {});
      await settle(got, 1);
      assert.deepEqual(got, ["committed"]);
    } finally {
      await stop();
    }
  });

  it("announces a change of a tenant's engine settings and of its diagnosis edits", async () => {
    const got: string[] = [];
    // other test processes share a PostgreSQL database and its channel: only this tenant's notices count
    const stop = await listener.listen(ENGINE_SETTINGS_CHANNEL, (payload) => {
      if (payload === String(ctx.tenant.id)) got.push(payload);
    });
    try {
      const patched = await ctx.tenant.call("PATCH", "/settings/prior-auth", {
        auto_approval_threshold: 0.9,
      });
      assert.equal(patched.statusCode, 200, patched.body);
      const imported = await ctx.tenant.call("POST", "/diagnosis-edits/import", [
        { code: "O80", sex: "FEMALE", min_age: 12, max_age: 55, maternity: true, newborn: false },
      ]);
      assert.equal(imported.statusCode, 200, imported.body);
      const refused = await ctx.tenant.call("PATCH", "/settings/prior-auth", { auto_approval_threshold: 2 });
      assert.equal(refused.statusCode, 400);
      await settle(got, 2);
      assert.deepEqual(
        got,
        [String(ctx.tenant.id), String(ctx.tenant.id)],
        "one notice per change, none for a refusal",
      );
    } finally {
      await stop();
    }
  });
});
