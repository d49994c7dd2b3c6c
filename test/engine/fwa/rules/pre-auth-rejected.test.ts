import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { preAuthRejectedRule } from "../../../../src/engine/fwa/rules/pre-auth-rejected.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import { claim } from "../fixtures.js";
import { isRule, run } from "./fixtures.js";

describe("fwa rule: pre-authorization rejected", () => {
  it("pre-authorization rejected: NDC001 on the claim; approved and pending pass", () => {
    const hits = run(preAuthRejectedRule, [
      claim({ "pre-auth_status": "APPROVED" }),
      claim({ claim_id: "C-2", "pre-auth_status": "PENDING" }),
      claim({ claim_id: "C-3", "pre-auth_status": "REJECTED", "pre-auth_number": "PA-9" }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [{ at: "claim 2", code: "NDC001", cause: "the pre-authorization of claim C-3 is REJECTED" }],
    );
    isRule(hits[0]?.finding as Finding, false);
  });
});
