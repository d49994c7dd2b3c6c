import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deliveryHeaders, secretProblem, sign, verify } from "../../../src/platform/events/signature.js";

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
