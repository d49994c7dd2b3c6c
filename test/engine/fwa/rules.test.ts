import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RULE_DETECTORS } from "../../../src/engine/fwa/rules.js";
import {
  birthAfterService,
  DISCHARGE_BEFORE_ADMISSION,
  dischargeBeforeAdmission,
  preAuthRejected,
  serviceBeforeCoverage,
} from "../../../src/engine/fwa/rules-claim.js";
import { diagnosisConflicts } from "../../../src/engine/fwa/rules-diagnosis.js";
import { exactDuplicates } from "../../../src/engine/fwa/rules-duplicates.js";
import type { Detector, Finding } from "../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../src/modules/claims-batch/claim.js";
import { claim, item, viewOf } from "./fixtures.js";

interface Hit {
  /** "item 3" or "claim 0" */
  at: string;
  code: string;
  cause: string;
  finding: Finding;
}

function run(detector: Detector, claims: BatchClaimInput[]): Hit[] {
  const hits: Hit[] = [];
  const record = (at: string, finding: Finding) =>
    hits.push({ at, code: finding.code, cause: finding.cause, finding });
  detector.run(viewOf(claims), {
    item: (i, finding) => record(`item ${i}`, finding),
    claim: (c, finding) => record(`claim ${c}`, finding),
    entity: () => assert.fail("rules report no entity scores"),
  });
  return hits;
}

const isRule = (finding: Finding, fwa: boolean) =>
  assert.deepEqual(
    { typeDecision: finding.typeDecision, source: finding.source, score: finding.score, fwa: finding.fwa },
    { typeDecision: "REJECT", source: "rules", score: 1, fwa },
  );

describe("fwa rules", () => {
  it("no rule hits a clean batch", () => {
    const clean = [
      claim(),
      claim({
        claim_id: "C-2",
        member_id: "M-3",
        claim_items: [item(), item({ claimed_quantity: 2 }), item({ claimed_amount: 151 })],
      }),
      claim({ claim_id: "C-3", claim_date: "2026-03-11", "pre-auth_status": "APPROVED" }),
      claim({
        claim_id: "C-4",
        claim_date: "2025-01-01",
        member_gender: "FEMALE",
        member_dob: "1990-01-01T00:00:00.000Z",
        primary_diagnosis_code: "O80",
        secondary_diagnosis_codes: [{ type: "secondary", code: "n39.0", name: "UTI" }],
        admission_date: "2025-01-01",
        discharge_date: "2025-01-01",
        claim_items: [
          item({ admission_date: "2025-01-01T10:00:00.000Z", discharge_date: "2025-01-03T08:00:00.000Z" }),
        ],
      }),
      claim({
        claim_id: "C-5",
        member_id: "M-2",
        member_dob: "2026-03-10T00:00:00.000Z",
        primary_diagnosis_code: "P07.3",
      }),
    ];
    for (const detector of RULE_DETECTORS) assert.deepEqual(run(detector, clean), [], detector.name);
  });

  it("service before insurance start: NDC034 on the claim", () => {
    const hits = run(serviceBeforeCoverage, [
      claim(),
      claim({ claim_id: "C-2", insurance_start_date: "2026-03-11" }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 1",
          code: "NDC034",
          cause: "claim date 2026-03-10 is before the insurance start 2026-03-11",
        },
      ],
    );
    isRule(hits[0]?.finding as Finding, false);
  });

  it("birth after service: NDC076 on the claim", () => {
    const hits = run(birthAfterService, [claim({ member_dob: "2026-03-11T00:00:00.000Z" })]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 0",
          code: "NDC076",
          cause: "member date of birth 2026-03-11 is after the claim date 2026-03-10",
        },
      ],
    );
    isRule(hits[0]?.finding as Finding, false);
  });

  it("discharge before admission: on the claim, and on the item", () => {
    const hits = run(dischargeBeforeAdmission, [
      claim({ admission_date: "2026-03-09", discharge_date: "2026-03-08" }),
      claim({
        claim_id: "C-2",
        claim_items: [
          item({ admission_date: "2026-03-05T10:00:00.000Z", discharge_date: "2026-03-06T10:00:00.000Z" }),
          item({ admission_date: "2026-03-05T10:00:00.000Z", discharge_date: "2026-03-04T23:00:00.000Z" }),
          item({ admission_date: "2026-03-05T10:00:00.000Z" }),
        ],
      }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 0",
          code: DISCHARGE_BEFORE_ADMISSION,
          cause: "claim discharge date 2026-03-08 is before its admission date 2026-03-09",
        },
        {
          at: "item 2",
          code: DISCHARGE_BEFORE_ADMISSION,
          cause: "item discharge date 2026-03-04 is before its admission date 2026-03-05",
        },
      ],
    );
    assert.match(DISCHARGE_BEFORE_ADMISSION, /^FWA-/);
    for (const hit of hits) isRule(hit.finding, false);
  });

  it("pre-authorization rejected: NDC001 on the claim; approved and pending pass", () => {
    const hits = run(preAuthRejected, [
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

  it("diagnosis vs gender: NDC053 for primary and secondary codes, each code once", () => {
    const hits = run(diagnosisConflicts, [
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
    const hits = run(diagnosisConflicts, [
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
    const hits = run(diagnosisConflicts, [
      claim({ member_dob: "1950-01-01T00:00:00.000Z", primary_diagnosis_code: "O80" }),
    ]);
    assert.deepEqual(
      hits.map((hit) => hit.code),
      ["NDC053", "NDC052"],
    );
  });

  it("exact duplicates across claims: NDC069 citing the first claim; within a claim: NDC081", () => {
    const visit = item({ claimed_quantity: 2, claimed_amount: 150.5 });
    const hits = run(exactDuplicates, [
      claim({ claim_items: [visit, item({ service_code: "83036" })] }), // items 0, 1
      claim({ claim_id: "C-2", claim_items: [visit, visit] }), // items 2, 3: both repeat C-1's first item
      claim({ claim_id: "C-3", claim_items: [item({ service_code: "X1" }), item({ service_code: "X1" })] }), // 4, 5
      // one field apart from C-1's item each: member, provider, date, service, quantity, amount
      claim({ claim_id: "C-4", member_id: "M-2", claim_items: [visit] }),
      claim({ claim_id: "C-5", provider_id: "P-2", claim_items: [visit] }),
      claim({ claim_id: "C-6", claim_date: "2026-03-11", claim_items: [visit] }),
      claim({ claim_id: "C-7", claim_items: [{ ...visit, service_code: "99214" }] }),
      claim({ claim_id: "C-8", claim_items: [{ ...visit, claimed_quantity: 3 }] }),
      claim({ claim_id: "C-9", claim_items: [{ ...visit, claimed_amount: 150.51 }] }),
    ]);
    const what = "service 99213, quantity 2 and unit amount 150.50";
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "item 2",
          code: "NDC069",
          cause: `same member, provider, claim date 2026-03-10, ${what} as item 1 of the earlier claim C-1`,
        },
        {
          at: "item 3",
          code: "NDC069",
          cause: `same member, provider, claim date 2026-03-10, ${what} as item 1 of the earlier claim C-1`,
        },
        {
          at: "item 5",
          code: "NDC081",
          cause: "repeats item 1 of this claim: same service X1, quantity 1 and unit amount 150.00",
        },
      ],
    );
    for (const hit of hits) isRule(hit.finding, true);
  });

  it("exact duplicates hold up with many items and colliding buckets", () => {
    const claims = Array.from({ length: 3000 }, (_, c) =>
      claim({
        claim_id: `C-${c}`,
        member_id: `M-${c % 1000}`,
        claim_items: [item({ claimed_amount: c % 7 })],
      }),
    );
    const hits = run(exactDuplicates, claims);
    // members repeat every 1000 claims and amounts every 7: no two of 3000 claims agree on both
    assert.equal(hits.length, 0);
    const again = run(exactDuplicates, [
      ...claims,
      ...claims.map((c) => ({ ...c, claim_id: `${c.claim_id}-again` })),
    ]);
    assert.equal(again.length, 3000);
    assert.ok(again.every((hit, k) => hit.at === `item ${3000 + k}` && hit.cause.endsWith(` C-${k}`)));
  });

  it("RULE_DETECTORS lists each rule once, with distinct names", () => {
    const names = RULE_DETECTORS.map((d) => d.name);
    assert.equal(new Set(names).size, 6);
    assert.ok(Object.isFrozen(RULE_DETECTORS));
  });
});
