import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelopeOf } from "../../../src/platform/events/delivery-job.js";
import { audienceOf } from "../../../src/platform/events/outbox.js";

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
