import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { subscribe } from "../../../src/modules/claims-batch/subscriptions.js";
import { createWebhook } from "../../../src/modules/webhooks/service.js";
import type { Db } from "../../../src/platform/db/db.js";
import { logSerializers } from "../../../src/platform/logging.js";
import { openTestDb } from "../../helpers.js";

const SECRET = "plain-TOPSECRET-token";

/** what the service's loggers write of an error (`{ err }` goes through their error serializer) */
const logged = (error: unknown) => JSON.stringify(logSerializers.err(error as Error));

/** the error a write raised, as the error handler would log it */
async function failure(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  assert.fail("the write should have failed");
}

describe("secrets in database errors", () => {
  let db: Db;
  before(async () => {
    db = await openTestDb();
  });
  after(() => db.close());

  // no tenant 2147483000: every insert fails on its foreign key, the third after the statement was
  // prepared (on PGlite it then runs as EXECUTE with its values as literals, and the error carries that text)
  const actor = { tenantId: 2_147_483_000, actor: "test", requestId: undefined };
  const allowed = { allowPrivate: [] };

  it("leaves a webhook's secret out of the error of a failed insert", async () => {
    for (let n = 0; n < 4; n++) {
      const error = await failure(() =>
        createWebhook(db, allowed, actor, {
          webhook_url: "https://8.8.8.8/h",
          hook_type: "POLICY",
          secret_token: SECRET,
        }),
      );
      assert.equal((error as { code?: string }).code, "23503", "the code stays for the error handler");
      assert.ok(!logged(error).includes("TOPSECRET"), logged(error));
    }
    // a check violation: PostgreSQL's detail lists the whole failing row
    const error = await failure(() =>
      createWebhook(db, allowed, actor, {
        webhook_url: "https://8.8.8.8/h",
        hook_type: "NOT_A_TYPE" as never,
        secret_token: SECRET,
      }),
    );
    assert.equal((error as { code?: string }).code, "23514");
    assert.ok(!logged(error).includes("TOPSECRET"), logged(error));
  });

  it("leaves a claims subscription's secret out of the error of a failed insert", async () => {
    for (let n = 0; n < 4; n++) {
      const error = await failure(() =>
        subscribe(db, allowed, actor, {
          webhook_url: "https://8.8.8.8/h",
          events: ["batch.queued"],
          secret: SECRET,
        }),
      );
      assert.equal((error as { code?: string }).code, "23503");
      assert.ok(!logged(error).includes("TOPSECRET"), logged(error));
    }
  });
});
