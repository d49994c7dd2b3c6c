import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createMizanClient, unwrap, verifyWebhook } from "@mizan/client";
import { deliveryHeaders, sign } from "../../../src/platform/events/signature.js";
import { batchBody, batchClaim } from "../../modules/claims-batch/fixtures.js";
import { serveTestApp } from "./served.js";

const body = JSON.stringify({
  event_type: "batch.completed",
  event_id: "evt-1",
  timestamp: "2026-03-10T09:00:00.000Z",
  data: { batch_id: "b-1", note: "حالة" },
});

describe("@mizan/client: verifyWebhook", () => {
  const now = Math.floor(Date.now() / 1000);

  const whsec = () => `whsec_${randomBytes(24).toString("base64")}`;
  for (const [kind, secret, other] of [
    ["a whsec_ secret (base64 key)", whsec(), whsec()],
    ["any other secret (its UTF-8 bytes)", "subscription-secret-مفتاح", "subscription-secret-مفتا"],
  ] as const)
    it(`accepts what the server signs with ${kind}, and refuses a tampered body`, () => {
      const headers = deliveryHeaders(secret, "evt-1", now, body);
      assert.deepEqual(verifyWebhook(secret, headers, body), { valid: true, id: "evt-1", timestamp: now });
      assert.equal(verifyWebhook(secret, headers, Buffer.from(body)).valid, true, "raw bytes too");
      assert.deepEqual(verifyWebhook(secret, headers, body.replace("b-1", "b-2")), {
        valid: false,
        reason: "bad signature",
      });
      assert.equal(verifyWebhook(other, headers, body).valid, false, "another secret");
    });

  it("reads fetch Headers and takes any of several space-separated signatures", () => {
    const secret = "s3cret";
    const headers = new Headers({
      "webhook-id": "evt-1",
      "webhook-timestamp": String(now),
      "webhook-signature": `v1,${"A".repeat(44)} ${sign(secret, "evt-1", now, body)}`,
    });
    assert.equal(verifyWebhook(secret, headers, body).valid, true);
  });

  it("refuses stale or future timestamps beyond the tolerance, and deliveries without the headers", () => {
    const secret = "s3cret";
    const stale = now - 301;
    // the clock given: seconds pass between the suite's `now` and this test on a loaded machine
    assert.deepEqual(verifyWebhook(secret, deliveryHeaders(secret, "evt-1", stale, body), body, { now }), {
      valid: false,
      reason: "stale timestamp",
    });
    assert.equal(
      verifyWebhook(secret, deliveryHeaders(secret, "evt-1", now + 301, body), body, { now }).valid,
      false,
    );
    assert.equal(
      verifyWebhook(secret, deliveryHeaders(secret, "evt-1", stale, body), body, {
        now,
        toleranceSeconds: 600,
      }).valid,
      true,
    );
    const unsigned = deliveryHeaders(null, "evt-1", now, body);
    assert.deepEqual(verifyWebhook(secret, unsigned, body), { valid: false, reason: "missing headers" });
  });

  it("refuses a signature made for another event id or timestamp", () => {
    const secret = "s3cret";
    const headers = deliveryHeaders(secret, "evt-1", now, body);
    assert.equal(verifyWebhook(secret, { ...headers, "webhook-id": "evt-2" }, body).valid, false);
    assert.equal(
      verifyWebhook(secret, { ...headers, "webhook-timestamp": String(now - 1) }, body).valid,
      false,
    );
  });
});

describe("@mizan/client: verifyWebhook on a real delivery", () => {
  it("verifies the batch.completed event the service delivers to a claims subscription", async () => {
    const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { ctx, baseUrl } = await serveTestApp();
    try {
      const secret = `whsec_${randomBytes(32).toString("base64")}`;
      const mizan = createMizanClient({
        baseUrl,
        clientId: ctx.tenant.clientId,
        clientSecret: ctx.tenant.clientSecret,
      });
      await unwrap(
        mizan.batch.POST("/v1/webhooks/subscribe", {
          body: {
            webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
            events: ["batch.completed"],
            secret,
          },
        }),
      );
      const accepted = await mizan.uploadBatch(batchBody([batchClaim(1)]));
      for (let waited = 0; received.length === 0 && waited < 20_000; waited += 100) await sleep(100);
      const [delivery] = received;
      assert.ok(delivery, "the event was delivered");
      assert.match(delivery.body.toString(), new RegExp(accepted.batch_id));
      assert.equal(verifyWebhook(secret, delivery.headers, delivery.body).valid, true);
      const tampered = Buffer.from(delivery.body.toString().replace(accepted.batch_id, "another-batch"));
      assert.equal(verifyWebhook(secret, delivery.headers, tampered).valid, false);
    } finally {
      await ctx.close();
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
