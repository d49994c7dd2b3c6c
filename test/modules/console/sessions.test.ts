import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sessionRepo } from "../../../src/modules/console/session-repo.js";
import { endSession, findSession, startSession } from "../../../src/modules/console/sessions.js";
import { startTestApp, type TestContext } from "../../helpers.js";
import { createReviewer } from "./fixtures.js";

describe("console sessions", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({}, { workers: 0 });
  });
  after(() => ctx.close());

  it("finds a session by its token until it ends or expires, and keeps only the token's hash", async () => {
    const tenant = await ctx.newTenant("lightweight");
    await createReviewer(tenant);
    const [user] = await ctx.db.query<{ id: number }>("SELECT id FROM users WHERE tenant_id = $1", [
      tenant.id,
    ]);
    // started 13 hours ago, so the purge below removes only sessions truly expired, never another test's
    const now = new Date(Date.now() - 13 * 3600_000);
    const token = await startSession(
      ctx.db,
      { tenantId: tenant.id, id: user?.id ?? 0, sessionEpoch: 0 },
      now,
    );
    const found = await findSession(ctx.db, tenant.id, token, now);
    assert.equal(found?.username, "rev1");
    assert.equal(found?.csrf_token.length, 32);
    const stored = await ctx.db.query<{ token_hash: string }>(
      "SELECT token_hash FROM console_sessions WHERE user_id = $1",
      [user?.id],
    );
    assert.notEqual(stored[0]?.token_hash, token);
    assert.equal(await findSession(ctx.db, tenant.id + 1, token, now), undefined, "another tenant's path");
    const later = new Date(now.getTime() + 13 * 3600_000);
    assert.equal(await findSession(ctx.db, tenant.id, token, later), undefined, "expired after 12 hours");
    assert.ok((await sessionRepo.deleteExpired(ctx.db, later)) >= 1);
    assert.equal(
      (await ctx.db.query("SELECT 1 FROM console_sessions WHERE user_id = $1", [user?.id])).length,
      0,
    );
    const again = await startSession(
      ctx.db,
      { tenantId: tenant.id, id: user?.id ?? 0, sessionEpoch: 0 },
      now,
    );
    await endSession(ctx.db, again);
    assert.equal(await findSession(ctx.db, tenant.id, again, now), undefined, "ended");
  });
});
