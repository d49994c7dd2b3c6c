import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claimIdIn } from "../../../../src/modules/claims-batch/upload/claim-id.js";

const id = (text: string) => claimIdIn(Buffer.from(text));

describe("the claim_id of a claim's first bytes", () => {
  it("finds the top-level claim_id before the cut", () => {
    assert.equal(id('{"claim_id": "C-1", "note": "xxx'), "C-1");
    assert.equal(
      id('{ "a": {"claim_id": "nested"}, "b": ["claim_id", "x"], "claim_id" : "C\\"2", "c'),
      'C"2',
    );
    assert.equal(id('{"note": "has \\"claim_id\\": \\"fake\\"", "claim_id": "C-3"'), "C-3");
  });

  it("says nothing when there is none to trust", () => {
    for (const text of [
      '{"note": "xxxx',
      '{"claim_id": "C-cut-in-the-mi',
      '{"claim_id": 12, "x": "C"',
      '{"claim_id": {"a": "C"}, "b": "x"',
      '{"nested": {"claim_id": "C-1"',
      `{"claim_id": "${"x".repeat(256)}"`,
      '{"claim_id": "bad \\u12"',
    ])
      assert.equal(id(text), undefined, text);
  });
});
