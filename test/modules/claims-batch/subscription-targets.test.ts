import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { subscriptionRepo, subscriptionTargets } from "../../../src/modules/claims-batch/repo.js";
import { subscribe, unsubscribe } from "../../../src/modules/claims-batch/subscriptions.js";
import { webhookTargets } from "../../../src/modules/webhooks/repo.js";
import { emitEvent, emitEventTo } from "../../../src/platform/events/outbox.js";
import { auditActions, startTestApp, type TestContext, testConfig } from "../../helpers.js";
import { type Answer, signedWith, startReceiver } from "../../platform/events/webhook-receiver.js";

const SECRET = "subscription-secret";

describe("the kinds of event target the modules give", () => {
  it("sends webhooks the events of their hook type, and claims subscriptions the batch events they list", () => {
    const batch = (eventType: string) => ({ hookType: "CLAIMS_BATCH" as const, eventType });
    assert.equal(
      webhookTargets.receives({
        hookType: "REFERRED",
        eventType: "REFERRED",
        transactionType: "CLAIM",
      }),
      "REFERRED,CLAIM,BOTH",
    );
    assert.equal(webhookTargets.receives(batch("batch.queued")), undefined);
    assert.equal(webhookTargets.receives({ hookType: "PING", eventType: "PING" }), undefined);
    assert.equal(subscriptionTargets.receives(batch("batch.queued")), "batch.queued");
    assert.equal(
      subscriptionTargets.receives(batch("batch.processing_update")),
      "batch.processing_update,batch.processing",
    );
    assert.equal(subscriptionTargets.receives({ hookType: "POLICY", eventType: "POLICY" }), undefined);
  });
});

describe("claims subscriptions as event targets", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  const allowed = { allowPrivate: testConfig().webhooks.allowPrivate };

  /** a tenant subscribed to batch.queued at a receiver answering `answer` */
  async function subscribedTo(answer: (n: number) => Answer) {
    const receiver = await startReceiver(answer);
    const tenant = await ctx.newTenant();
    const actor = { tenantId: tenant.id, actor: "test", requestId: undefined };
    const subscription = await subscribe(ctx.db, allowed, actor, {
      webhook_url: receiver.url,
      events: ["batch.queued"],
      secret: SECRET,
    });
    const queued = () =>
      ctx.db.transaction((tx) =>
        emitEvent(tx, ctx.jobs, tenant.id, {
          hookType: "CLAIMS_BATCH",
          eventType: "batch.queued",
          data: { status: "queued" },
          subject: "batch:00000000-0000-4000-8000-000000000001",
        }),
      );
    const deliveryStatuses = async () =>
      (
        await ctx.db.query<{ status: string }>(
          "SELECT status FROM event_deliveries WHERE subscription_id = $1 ORDER BY id",
          [subscription.id],
        )
      ).map((row) => row.status);
    return { receiver, tenant, actor, subscription, queued, deliveryStatuses };
  }

  async function until(condition: () => Promise<boolean>, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error("the condition did not hold in time");
      await sleep(50);
    }
  }

  it("deactivates a subscription whose receiver answers 410, and sends it nothing more", async () => {
    const { receiver, tenant, subscription, queued, deliveryStatuses } = await subscribedTo(() => 410);
    try {
      await queued();
      await until(
        async () => (await subscriptionRepo.find(ctx.db, tenant.id, subscription.id))?.status === "inactive",
      );
      assert.deepEqual(await deliveryStatuses(), ["failed"]);
      assert.deepEqual(await auditActions(ctx.db, tenant.id, "claims-subscription", subscription.id), [
        "claims-subscription.create",
        "webhook.deactivate",
      ]);
      await queued();
      await sleep(600);
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(await deliveryStatuses(), ["failed"], "no delivery is even created");
    } finally {
      await receiver.close();
    }
  });

  it("cancels what was still to reach a subscription when it is removed", async () => {
    const { receiver, actor, subscription, queued, deliveryStatuses } = await subscribedTo(() => 500);
    try {
      await queued();
      await receiver.waitFor(1);
      const removed = await unsubscribe(ctx.db, actor, subscription.id);
      assert.equal(removed.status, "inactive");
      await until(async () => (await deliveryStatuses())[0] !== "pending");
      assert.deepEqual(await deliveryStatuses(), ["cancelled"]);
      const seen = receiver.received.length;
      await sleep(600);
      assert.equal(receiver.received.length, seen, "no retry reaches a removed subscription");
    } finally {
      await receiver.close();
    }
  });

  it("sends an event to one subscription alone, signed with its secret", async () => {
    const { receiver, tenant, subscription, deliveryStatuses } = await subscribedTo(() => 200);
    try {
      const sent = await ctx.db.transaction((tx) =>
        emitEventTo(
          tx,
          ctx.jobs,
          tenant.id,
          { kind: subscriptionTargets, id: subscription.id },
          { hookType: "PING", eventType: "PING", data: { subscription_id: subscription.id } },
        ),
      );
      assert.equal(typeof sent.deliveryId, "number");
      const [received] = await receiver.waitFor(1);
      assert.equal(received?.json.event_id, sent.eventId);
      assert.ok(received && signedWith(SECRET, received));
      await until(async () => (await deliveryStatuses())[0] === "delivered");
    } finally {
      await receiver.close();
    }
  });
});
