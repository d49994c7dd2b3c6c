import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  NEAR_DUPLICATE_CODE,
  nearDuplicateDetector,
} from "../../../../src/engine/fwa/detectors/near-duplicate.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item } from "../fixtures.js";
import { background, claimsWith, day, isFlag, only, run } from "./fixtures.js";

describe("fwa near-duplicates", () => {
  const visit = (id: string, provider: string, offset: number, extra: Partial<BatchClaimInput> = {}) =>
    claim({
      claim_id: id,
      member_id: "M-X",
      provider_id: provider,
      claim_date: day(offset),
      claim_items: [
        item({ service_code: "99213" }),
        item({ service_code: "70553", claimed_amount: 2500 }),
        item({ service_code: "74177", claimed_amount: 1500 }),
      ],
      ...extra,
    });

  it("the same services for one member at another provider two days later: both claims' items", () => {
    const result = run(nearDuplicateDetector, [...background(), visit("A", "P-1", 3), visit("B", "P-9", 5)]);
    assert.deepEqual(claimsWith(result, NEAR_DUPLICATE_CODE), ["A", "B"]);
    const findings = only(result);
    assert.equal(findings.length, 6);
    for (const finding of findings) isFlag(finding);
    assert.ok(findings.every((f) => f.score > 0.95));
    const causes = findings.map((f) => f.cause);
    assert.ok(
      causes.includes(
        "service 70553 is also billed for this member by provider P-9 in claim B on 2026-03-06, 2 days apart; " +
          "3 of this claim's 3 services repeat there, same primary diagnosis E119",
      ),
    );
    assert.ok(
      causes.some((c) =>
        c.startsWith("service 70553 is also billed for this member by provider P-1 in claim A"),
      ),
    );
  });

  it("the same provider, a week apart, another member, or only a common service: nothing", () => {
    const none = (claims: BatchClaimInput[]) =>
      assert.deepEqual(only(run(nearDuplicateDetector, [...background(), ...claims])), []);
    none([visit("A", "P-1", 3), visit("B", "P-1", 5)]);
    none([visit("A", "P-1", 3), visit("B", "P-9", 10)]);
    none([visit("A", "P-1", 3), visit("B", "P-9", 5, { member_id: "M-Y" })]);
    // an office visit billed on most claims, in claims otherwise different
    none([
      visit("A", "P-1", 3),
      visit("B", "P-9", 5, {
        primary_diagnosis_code: "J06.9",
        claim_items: [item({ service_code: "99213", claimed_amount: 180 }), item({ service_code: "LAB-1" })],
      }),
    ]);
  });
});
