import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelopeOf, retryDelayMs } from "../src/platform/events/delivery-job.js";
import { audienceOf } from "../src/platform/events/outbox.js";
import { deliveryHeaders, secretProblem, sign, verify } from "../src/platform/events/signature.js";
import { isNonPublicAddress } from "../src/platform/events/target-address.js";

describe("Standard Webhooks signatures", () => {
  // the test vector of the Standard Webhooks reference libraries
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const body = '{"test": 2432232314}';

  it("matches the reference signature", () => {
    assert.equal(sign(secret, id, 1614265330, body), "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("verifies a fresh signature and refuses a changed body, a stale timestamp or another secret", () => {
    const now = 1_800_000_000;
    const headers = { id, timestamp: String(now), signature: sign(secret, id, now, body) };
    assert.ok(verify(secret, headers, body, { now }));
    assert.ok(verify(secret, { ...headers, signature: `v1,bm90IGl0 ${headers.signature}` }, body, { now }));
    assert.ok(!verify(secret, headers, `${body} `, { now }));
    assert.ok(!verify(secret, headers, body, { now: now + 301 }));
    assert.ok(!verify("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", headers, body, { now }));
  });

  it("uses a plain secret's UTF-8 bytes as the key, and signs nothing without a secret", () => {
    assert.equal(sign("clé", "e1", 1, "{}"), sign("whsec_Y2zDqQ==", "e1", 1, "{}"));
    assert.equal(deliveryHeaders(null, "e1", 1, "{}")["webhook-signature"], undefined);
    assert.deepEqual(Object.keys(deliveryHeaders("s", "e1", 1, "{}")), [
      "content-type",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
  });

  it("refuses a whsec_ secret that is not base64", () => {
    assert.equal(secretProblem("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), undefined);
    assert.equal(secretProblem("any text at all"), undefined);
    assert.match(secretProblem("whsec_not base64!") ?? "", /base64/);
    assert.match(secretProblem("whsec_") ?? "", /base64/);
  });
});

describe("delivery schedule", () => {
  it("doubles from the first delay, spread by +-25 %, capped at 6 hours", () => {
    assert.equal(retryDelayMs(1, 5_000, 0.5), 5_000);
    assert.equal(retryDelayMs(2, 5_000, 0.5), 10_000);
    assert.equal(retryDelayMs(5, 5_000, 0.5), 80_000);
    assert.equal(retryDelayMs(1, 5_000, 0), 3_750);
    assert.equal(retryDelayMs(1, 5_000, 1), 6_250);
    assert.equal(retryDelayMs(20, 5_000, 0.5), 6 * 3600_000);
    assert.equal(retryDelayMs(200, 5_000, 1), 7.5 * 3600_000);
  });

  it("keeps retrying for at least 24 hours with the default settings", () => {
    // the shortest possible schedule: every jitter at its lowest
    let elapsed = 0;
    let attempt = 1;
    while (elapsed < 86_400_000) elapsed += retryDelayMs(attempt++, 5_000, 0);
    assert.ok(attempt >= 14 && attempt <= 20, `${attempt} attempts`);
  });
});

describe("event envelopes and audiences", () => {
  it("wraps the stored data byte for byte in the spec's envelope", () => {
    const body = envelopeOf({
      event_type: "PRE_AUTH_RESULT",
      event_id: "0e8c0c4e-5c4c-4d4b-9b1e-000000000001",
      event_created_at: new Date("2026-11-23T10:00:00.123Z"),
      data: '{"z":1, "a":null}',
    });
    assert.equal(
      body,
      '{"event_type":"PRE_AUTH_RESULT","event_id":"0e8c0c4e-5c4c-4d4b-9b1e-000000000001","timestamp":"2026-11-23T10:00:00.123Z","data":{"z":1, "a":null}}',
    );
    assert.deepEqual(JSON.parse(body).data, { z: 1, a: null });
  });

  it("sends prior-authorization events to their own hook type, their transaction type's, and BOTH", () => {
    assert.deepEqual(audienceOf({ hookType: "POLICY" }), ["POLICY"]);
    assert.deepEqual(audienceOf({ hookType: "PRE_AUTH_RESULT", transactionType: "PREAUTH" }), [
      "PRE_AUTH_RESULT",
      "PRE_AUTH",
      "BOTH",
    ]);
    assert.deepEqual(audienceOf({ hookType: "REFERRED", transactionType: "CLAIM" }), [
      "REFERRED",
      "CLAIM",
      "BOTH",
    ]);
  });
});

describe("non-public addresses", () => {
  it("knows loopback, private, link-local and mapped addresses from public ones", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
    ])
      assert.ok(isNonPublicAddress(address), address);
    for (const address of ["::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::"])
      assert.ok(isNonPublicAddress(address), address);
    for (const address of ["8.8.8.8", "212.26.1.1", "2a00:1450:4001::1", "::ffff:8.8.8.8"])
      assert.ok(!isNonPublicAddress(address), address);
  });
});
