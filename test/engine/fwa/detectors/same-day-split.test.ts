import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  SAME_DAY_SPLIT_CODE,
  sameDaySplitDetector,
} from "../../../../src/engine/fwa/detectors/same-day-split.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item } from "../fixtures.js";
import { background, claimsWith, day, isFlag, only, run } from "./fixtures.js";

describe("fwa same-day splits", () => {
  const part = (id: string, codes: string[], extra: Partial<BatchClaimInput> = {}) =>
    claim({
      claim_id: id,
      member_id: "M-X",
      provider_id: "P-1",
      claim_date: day(4),
      claim_items: codes.map((code) => item({ service_code: code })),
      ...extra,
    });

  it("three claims of one member at one provider on one day: every item of every part", () => {
    const result = run(sameDaySplitDetector, [
      ...background(),
      part("S1", ["99213"]),
      part("S2", ["80053"]),
      part("S3", ["85025"]),
    ]);
    assert.deepEqual(claimsWith(result, SAME_DAY_SPLIT_CODE), ["S1", "S2", "S3"]);
    const findings = only(result);
    assert.equal(new Set(findings).size, 1);
    isFlag(findings[0] as Finding);
    // 3 claims 0.55, same diagnosis 0.25, 3 items for a typical 2: 1 - 0.45 * 0.75 * 0.8
    assert.ok(Math.abs((findings[0]?.score as number) - 0.73) < 1e-9);
    assert.equal(
      findings[0]?.cause,
      "3 professional claims of this member at provider P-1 on 2026-03-05 (S1, S2, S3) with 3 items in all; " +
        "a typical claim of the batch has 2; same primary diagnosis E119",
    );
  });

  it("an exact resubmission, another claim type, another provider or day: no split", () => {
    const none = (claims: BatchClaimInput[]) =>
      assert.deepEqual(only(run(sameDaySplitDetector, [...background(), ...claims])), []);
    none([part("S1", ["99213", "80053"]), part("S2", ["80053", "99213"])]);
    none([part("S1", ["99213"]), part("S2", ["80053"], { claim_type: "INSTITUTIONAL" })]);
    none([part("S1", ["99213"]), part("S2", ["80053"], { provider_id: "P-2" })]);
    none([part("S1", ["99213"]), part("S2", ["80053"], { claim_date: day(5) })]);
    // two parts with different diagnoses and many items: weak, below 0.5
    const [weak] = only(
      run(sameDaySplitDetector, [
        ...background(),
        part("S1", ["A", "B", "C"]),
        part("S2", ["D", "E"], { primary_diagnosis_code: "I10" }),
      ]),
    );
    assert.ok((weak?.score as number) < 0.5);
  });
});
