import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../src/engine/fwa/analyze.js";
import {
  MEMBER_PATTERN_PROVIDERS_CODE,
  MEMBER_PATTERN_VISITS_CODE,
} from "../../../src/engine/fwa/detectors/member-pattern.js";
import { NEAR_DUPLICATE_CODE } from "../../../src/engine/fwa/detectors/near-duplicate.js";
import { PRICE_OUTLIER_CODE } from "../../../src/engine/fwa/detectors/price-outlier.js";
import { PROVIDER_PROFILE_CODE } from "../../../src/engine/fwa/detectors/provider-profile.js";
import { QUANTITY_OUTLIER_CODE } from "../../../src/engine/fwa/detectors/quantity-outlier.js";
import { SAME_DAY_SPLIT_CODE } from "../../../src/engine/fwa/detectors/same-day-split.js";
import { STAY_OUTLIER_CODE } from "../../../src/engine/fwa/detectors/stay-outlier.js";
import { UPCODING_CODE } from "../../../src/engine/fwa/detectors/upcoding.js";
import { FWA_DETECTORS, RULE_DETECTORS, STATISTICAL_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { BIRTH_AFTER_SERVICE_CODE } from "../../../src/engine/fwa/rules/birth-after-service.js";
import {
  DIAGNOSIS_CONFLICT_AGE_CODE,
  DIAGNOSIS_CONFLICT_GENDER_CODE,
} from "../../../src/engine/fwa/rules/diagnosis-conflict.js";
import { DISCHARGE_BEFORE_ADMISSION_CODE } from "../../../src/engine/fwa/rules/discharge-before-admission.js";
import {
  EXACT_DUPLICATE_CLAIM_CODE,
  EXACT_DUPLICATE_ITEM_CODE,
} from "../../../src/engine/fwa/rules/exact-duplicate.js";
import { PRE_AUTH_REJECTED_CODE } from "../../../src/engine/fwa/rules/pre-auth-rejected.js";
import { SERVICE_BEFORE_COVERAGE_CODE } from "../../../src/engine/fwa/rules/service-before-coverage.js";
import { statusOf } from "../../../src/engine/fwa/types.js";
import { day } from "./detectors/fixtures.js";
import { claim, item, viewOf } from "./fixtures.js";
import { run } from "./rules/fixtures.js";

describe("fwa rules together", () => {
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

  it("RULE_DETECTORS lists each rule once, with distinct names", () => {
    const names = RULE_DETECTORS.map((d) => d.name);
    assert.equal(new Set(names).size, 6);
    assert.ok(Object.isFrozen(RULE_DETECTORS));
  });
});

describe("fwa detectors together", () => {
  it("run in the published order, each named as its file, each reason code as published", () => {
    assert.deepEqual(
      FWA_DETECTORS.map((d) => d.name),
      [
        ...["service-before-coverage", "birth-after-service", "discharge-before-admission"],
        ...["diagnosis-conflict", "pre-auth-rejected", "exact-duplicate"],
        ...["price-outlier", "quantity-outlier", "stay-outlier", "near-duplicate", "same-day-split"],
        ...["member-pattern", "provider-profile", "upcoding"],
      ],
    );
    assert.deepEqual(
      [
        ...[SERVICE_BEFORE_COVERAGE_CODE, BIRTH_AFTER_SERVICE_CODE, DISCHARGE_BEFORE_ADMISSION_CODE],
        ...[DIAGNOSIS_CONFLICT_GENDER_CODE, DIAGNOSIS_CONFLICT_AGE_CODE, PRE_AUTH_REJECTED_CODE],
        ...[EXACT_DUPLICATE_CLAIM_CODE, EXACT_DUPLICATE_ITEM_CODE],
        ...[PRICE_OUTLIER_CODE, QUANTITY_OUTLIER_CODE, STAY_OUTLIER_CODE, NEAR_DUPLICATE_CODE],
        ...[SAME_DAY_SPLIT_CODE, MEMBER_PATTERN_PROVIDERS_CODE, MEMBER_PATTERN_VISITS_CODE],
        ...[PROVIDER_PROFILE_CODE, UPCODING_CODE],
      ],
      [
        ...["NDC034", "NDC076", "FWA-DATE-01", "NDC053", "NDC052", "NDC001", "NDC069", "NDC081"],
        ...["FWA-PRICE-01", "FWA-QTY-01", "FWA-LOS-01", "FWA-DUP-01", "FWA-SPLIT-01"],
        ...["FWA-MEMBER-01", "FWA-MEMBER-02", "FWA-PROV-01", "FWA-UPCODE-01"],
      ],
    );
  });

  it("export the rules then the statistics, each once", () => {
    assert.deepEqual(FWA_DETECTORS, [...RULE_DETECTORS, ...STATISTICAL_DETECTORS]);
    assert.equal(new Set(FWA_DETECTORS.map((d) => d.name)).size, FWA_DETECTORS.length);
    assert.equal(STATISTICAL_DETECTORS.length, 8);
    assert.ok(Object.isFrozen(STATISTICAL_DETECTORS) && Object.isFrozen(FWA_DETECTORS));
  });

  it("run on an empty batch and on a single claim without findings", () => {
    for (const claims of [[], [claim()]]) {
      const decisions = analyzeBatch(viewOf(claims), FWA_DETECTORS, { flagThreshold: 0.5 });
      assert.equal(decisions.itemFindings.size, 0);
      assert.equal(decisions.providerScore.size, 0);
    }
  });

  it("no detector stamps a provider's exposure on its claims (it is a ranking term)", () => {
    assert.ok(!FWA_DETECTORS.some((d) => d.name === "provider-exposure"));
  });

  it("weak findings of two detectors add up on an item; a long stay and a high price only support", () => {
    const stay = (k: number, days: number, price: number) =>
      claim({
        claim_id: `S-${k}`,
        member_id: `M-${k}`,
        provider_id: `H-${k % 4}`,
        claim_type: "INSTITUTIONAL",
        claim_sub_type: "IN_PATIENT",
        admission_date: day(0),
        discharge_date: day(days),
        claim_items: [item({ service_code: "ROOM", claimed_amount: price })],
      });
    // stays of 3-5 days; room prices 900 x exp(-0.2 .. 0.2): a robust scale of 0.15 in ln(price)
    const claims = Array.from({ length: 30 }, (_, k) =>
      stay(k, 3 + (k % 3), Math.round(900 * Math.exp(0.1 * ((k % 5) - 2)))),
    );
    // a stay of 12 days (z 3.6, 2.4 times the upper quartile: about 0.44) whose room price is 1.68 times the
    // median (z 3.5: about 0.3)
    claims.push(stay(99, 12, 1515));
    const view = viewOf(claims);
    const decisions = analyzeBatch(view, STATISTICAL_DETECTORS, { flagThreshold: 0.5 });
    const findings = decisions.itemFindings.get(30) ?? [];
    assert.deepEqual(findings.map((f) => f.code).sort(), [PRICE_OUTLIER_CODE, STAY_OUTLIER_CODE].sort());
    assert.ok(
      findings.every((f) => f.score < 0.5),
      findings.map((f) => f.score).join(),
    );
    const expected = 1 - findings.reduce((keep, f) => keep * (1 - f.score), 1);
    assert.ok(expected >= 0.5 && Math.abs((decisions.itemScore[30] as number) - expected) < 1e-6);
    // both are supporting evidence: their score reaches the threshold, yet nothing else stands
    // behind the item, so it is not flagged; its reasons stay
    assert.ok(findings.every((f) => f.supporting === true));
    assert.equal(statusOf(decisions.itemStatus[30]), "approved");
  });
});
