import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { diagnosisConflictRule } from "../../../../src/engine/fwa/rules/diagnosis-conflict.js";
import { claim } from "../fixtures.js";
import { isRule, run } from "./fixtures.js";

describe("fwa rule: diagnosis conflicts", () => {
  it("diagnosis vs gender: NDC053 for primary and secondary codes, each code once", () => {
    const hits = run(diagnosisConflictRule, [
      claim({
        primary_diagnosis_code: "N76.0",
        secondary_diagnosis_codes: [
          { type: "secondary", code: "I10", name: "Hypertension" },
          { type: "secondary", code: "n760", name: "Vaginitis, again" },
        ],
      }),
      claim({
        claim_id: "C-2",
        member_gender: "FEMALE",
        secondary_diagnosis_codes: [{ type: "secondary", code: "N40.0", name: "BPH" }],
      }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 0",
          code: "NDC053",
          cause:
            "primary diagnosis N760 is for female members (female-only range N70-N98); the member is male",
        },
        {
          at: "claim 1",
          code: "NDC053",
          cause:
            "secondary diagnosis N400 is for male members (male-only range N40-N53); the member is female",
        },
      ],
    );
    for (const hit of hits) isRule(hit.finding, false);
  });

  it("diagnosis vs age at the claim date: NDC052", () => {
    const hits = run(diagnosisConflictRule, [
      // a newborn-only code for a 45-year-old
      claim({ primary_diagnosis_code: "P07.3" }),
      // a maternity code for a girl of 10, one day before her 11th birthday
      claim({
        claim_id: "C-2",
        member_gender: "FEMALE",
        member_dob: "2015-03-11T00:00:00.000Z",
        secondary_diagnosis_codes: [{ type: "secondary", code: "O80", name: "Delivery" }],
      }),
      // an adult code for a 16-year-old: fine; born after the claim: left to NDC076
      claim({ claim_id: "C-3", member_dob: "2010-01-01T00:00:00.000Z", primary_diagnosis_code: "H25.9" }),
      claim({ claim_id: "C-4", member_dob: "2026-03-11T00:00:00.000Z", primary_diagnosis_code: "H25.9" }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 0",
          code: "NDC052",
          cause:
            "primary diagnosis P073 is for age 0 (newborn range P00-P96); the member is 45 at the claim date 2026-03-10",
        },
        {
          at: "claim 1",
          code: "NDC052",
          cause:
            "secondary diagnosis O80 is for age 12-55 (maternity range O00-O9A); the member is 10 at the claim date 2026-03-10",
        },
      ],
    );
  });

  it("both conflicts of one code are reported", () => {
    const hits = run(diagnosisConflictRule, [
      claim({ member_dob: "1950-01-01T00:00:00.000Z", primary_diagnosis_code: "O80" }),
    ]);
    assert.deepEqual(
      hits.map((hit) => hit.code),
      ["NDC053", "NDC052"],
    );
  });
});
