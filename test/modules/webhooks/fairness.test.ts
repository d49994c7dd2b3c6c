import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { emitEvent } from "../../../src/platform/events/outbox.js";
import { REFUSED_ADDRESS } from "../../../src/platform/events/post.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { startReceiver } from "../../platform/events/webhook-receiver.js";

async function register(tenant: TenantClient, url: string): Promise<number> {
  const res = await tenant.call("POST", "/webhook/create", { webhook_url: url, hook_type: "POLICY" });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

/** `count` POLICY events of the tenant, in one transaction */
function emitMany(ctx: TestContext, tenant: TenantClient, count: number) {
  return ctx.db.transaction(async (tx) => {
    for (let n = 0; n < count; n++)
      await emitEvent(tx, ctx.jobs, tenant.id, { hookType: "POLICY", eventType: "POLICY", data: { n } });
  });
}

describe("deliveries are fair between tenants", () => {
  let ctx: TestContext;
  before(async () => {
    // a long timeout, so a delivery held behind the hanging ones would show
    ctx = await startTestApp({ MIZAN_WEBHOOK_TIMEOUT_MS: "8000" });
  });
  after(() => ctx.close());

  it("delivers another tenant's event at once while one tenant's receiver hangs on hundreds", async () => {
    const blackHole = await startReceiver(() => "hang");
    const healthy = await startReceiver();
    try {
      const noisy = await ctx.newTenant();
      const quiet = await ctx.newTenant();
      await register(noisy, blackHole.url);
      await register(quiet, healthy.url);
      await emitMany(ctx, noisy, 300);
      // the noisy tenant's slots are taken, each by an attempt that will not end for 8 s
      await blackHole.waitFor(8, 5_000);

      const sent = Date.now();
      await emitMany(ctx, quiet, 1);
      const [got] = await healthy.waitFor(1, 8_000);
      const waited = (got?.at ?? Number.POSITIVE_INFINITY) - sent;
      assert.ok(waited < 2_000, `the quiet tenant's event took ${waited} ms`);
      assert.equal(blackHole.received.length, 8, "the noisy tenant holds 8 attempts at once, no more");
    } finally {
      await blackHole.close();
      await healthy.close();
    }
  });
});

describe("the address policy at delivery", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({ MIZAN_WEBHOOK_ALLOW_PRIVATE: "" });
  });
  after(() => ctx.close());

  it("connects to no non-public address, even for a target that passed registration", async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await ctx.newTenant();
      // stands for a name that resolved to a public address at registration and now resolves to loopback
      const [webhook] = await ctx.db.query<{ id: number }>(
        "INSERT INTO webhooks (tenant_id, webhook_url, hook_type) VALUES ($1, $2, 'POLICY') RETURNING id",
        [tenant.id, receiver.url],
      );
      await emitMany(ctx, tenant, 1);
      let attempts: { error: string | null; status_code: number | null }[] = [];
      for (let waited = 0; attempts.length === 0 && waited < 10_000; waited += 50) {
        await sleep(50);
        const res = await tenant.call("GET", `/webhook/${webhook?.id}/deliveries`);
        attempts = res.json().data[0]?.attempts ?? [];
      }
      assert.deepEqual(attempts[0], { ...attempts[0], status_code: null, error: REFUSED_ADDRESS });
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
    }
  });
});
