import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../../src/engine/fwa/analyze.js";
import {
  claimIdOf,
  createColumnarBuilder,
  GENDER,
  PRE_AUTH,
  rankingColumns,
} from "../../../../src/engine/fwa/columns/columnar.js";
import { dayOfText } from "../../../../src/engine/fwa/columns/days.js";
import { tenantFeaturesOf } from "../../../../src/engine/fwa/model/tenant-model.js";
import { memberRanking } from "../../../../src/engine/fwa/ranking/members.js";
import { providerEvidence, rankProviders } from "../../../../src/engine/fwa/ranking/providers.js";
import { FWA_DETECTORS } from "../../../../src/engine/fwa/registry.js";
import { NO_DATE } from "../../../../src/engine/fwa/types.js";
import { generateClaims } from "../../../../synthetic/index.js";
import { claim, item } from "../fixtures.js";

describe("fwa columnar builder", () => {
  it("round-trips claims: offsets, interning, dates, enums, halalas", () => {
    const builder = createColumnarBuilder({ claims: 1, items: 1 });
    builder.add(
      claim({
        secondary_diagnosis_codes: [
          { type: "secondary", code: "i10", name: "Hypertension" },
          { type: "secondary", code: "E11.9", name: "Type 2 diabetes" },
        ],
        admission_date: "2026-03-08",
        discharge_date: "2026-03-09",
        "pre-auth_status": "REJECTED",
        days_supply: 30,
        is_emergency: true,
        claim_items: [
          item({ claimed_amount: 0.29, claimed_quantity: 3 }),
          item({
            service_code: "J1100",
            claimed_amount: 1234567.89,
            admission_date: "2026-03-08T10:00:00.000Z",
            discharge_date: "2026-03-09T09:30:00.000Z",
          }),
        ],
      }),
    );
    // enough claims and items to double every column several times
    for (let c = 2; c <= 40; c += 1) {
      builder.add(
        claim({
          claim_id: `C-${c}`,
          claim_type: "INSTITUTIONAL",
          claim_sub_type: "EMERGENCY",
          member_gender: "FEMALE",
          medical_provider_type: "RADIOLOGY",
          "pre-auth_status": c % 2 === 0 ? "APPROVED" : "PENDING",
          primary_diagnosis_code: c === 40 ? "e119" : "E11.9",
          provider_id: c === 40 ? "M-1" : "P-1",
          secondary_diagnosis_codes: [{ type: "secondary", code: "N39.0", name: "UTI" }],
          claim_items: Array.from({ length: c % 3 }, () => item()).concat(item({ service_code: `S${c}` })),
        }),
      );
    }
    const view = builder.finish();
    assert.throws(() => builder.add(claim()), /finished/);
    assert.equal(view.claimCount, 40);
    const expectedItems = 2 + Array.from({ length: 39 }, (_, k) => ((k + 2) % 3) + 1).reduce((a, b) => a + b);
    assert.equal(view.itemCount, expectedItems);
    assert.equal(view.firstItem.length, 41);
    assert.deepEqual([...view.firstItem.subarray(0, 4)], [0, 2, 5, 6]);
    assert.equal(view.firstItem[40], view.itemCount);
    for (let c = 0; c < view.claimCount; c += 1) {
      for (let i = view.firstItem[c] as number; i < (view.firstItem[c + 1] as number); i += 1) {
        assert.equal(view.itemClaim[i], c);
      }
    }
    assert.equal(view.itemClaim.length, view.itemCount);

    const text = (id: number | undefined) => view.strings[id as number];
    assert.equal(claimIdOf(view, 0), "C-1");
    assert.equal(claimIdOf(view, 39), "C-40");
    assert.ok(!view.strings.includes("C-1"), "claim ids are not interned with the codes");
    assert.equal(view.memberId[0], view.memberId[39], "one member id, one index");
    assert.equal(text(view.primaryDiagnosis[0]), "E119");
    assert.deepEqual([...view.firstSecondary.subarray(0, 3)], [0, 2, 3]);
    assert.equal(view.secondaryDiagnoses.length, 2 + 39);
    assert.equal(text(view.secondaryDiagnoses[0]), "I10");
    assert.equal(view.secondaryDiagnoses[1], view.primaryDiagnosis[0], "normalized codes share an index");
    assert.equal(view.primaryDiagnosis[39], view.primaryDiagnosis[0], "so do other spellings of a code");
    assert.equal(text(view.providerId[39]), "M-1", "kinds intern apart: same text, own index");
    assert.notEqual(view.providerId[39], view.memberId[39]);
    assert.equal(text(view.secondaryDiagnoses[2]), "N390");
    assert.equal(text(view.serviceCode[1]), "J1100");
    assert.equal(view.serviceCode[0], view.serviceCode[2]);

    assert.equal(view.claimDate[0], dayOfText("2026-03-10"));
    assert.equal(view.memberDob[0], dayOfText("1980-05-20"));
    assert.equal(view.insuranceStart[0], dayOfText("2025-01-01"));
    assert.equal(view.admissionDate[0], dayOfText("2026-03-08"));
    assert.equal(view.dischargeDate[0], dayOfText("2026-03-09"));
    assert.equal(view.admissionDate[1], NO_DATE);
    assert.equal(view.itemAdmission[1], dayOfText("2026-03-08"));
    assert.equal(view.itemDischarge[1], dayOfText("2026-03-09"));
    assert.equal(view.itemAdmission[0], NO_DATE);

    assert.deepEqual([view.claimType[0], view.claimType[1]], [0, 1]);
    assert.deepEqual([view.claimSubType[0], view.claimSubType[1]], [1, 2]);
    assert.deepEqual([view.isEmergency[0], view.isEmergency[1]], [1, 0]);
    assert.deepEqual([view.memberGender[0], view.memberGender[1]], [GENDER.MALE, GENDER.FEMALE]);
    assert.deepEqual([view.providerType[0], view.providerType[1]], [0, 4]);
    assert.deepEqual(
      [view.preAuthStatus[0], view.preAuthStatus[1], view.preAuthStatus[2]],
      [PRE_AUTH.REJECTED, PRE_AUTH.APPROVED, PRE_AUTH.PENDING],
    );
    assert.deepEqual([view.daysSupply[0], view.daysSupply[1]], [30, 0]);

    assert.deepEqual([view.unitAmount[0], view.unitAmount[1]], [29, 123_456_789]);
    assert.deepEqual([view.quantity[0], view.quantity[1]], [3, 1]);
  });

  it("gives an empty view for no claims", () => {
    const view = createColumnarBuilder().finish();
    assert.equal(view.claimCount, 0);
    assert.equal(view.itemCount, 0);
    assert.deepEqual([...view.firstItem], [0]);
    assert.deepEqual([...view.firstSecondary], [0]);
  });
});

describe("fwa columns the rankings read", () => {
  it("leave out the echoed ids and the detectors' own columns, and both rankings and the provider features as they were", () => {
    const builder = createColumnarBuilder();
    for (const generated of generateClaims({ claims: 3_000, seed: 5 })) builder.add(generated);
    const view = builder.finish();
    const decisions = analyzeBatch(view, FWA_DETECTORS, { flagThreshold: 0.5 });
    assert.ok(decisions.itemFindings.size > 100, "findings to rank by");
    const trimmed = rankingColumns(view);
    assert.ok(view.erpItemIds.count > 1_000, "the generated claims send erp item ids");
    assert.ok(
      view.isEmergency.includes(1) && view.itemAdmission.some((day) => day !== NO_DATE),
      "varied claims",
    );
    assert.deepEqual([trimmed.claimIds.count, trimmed.erpItemIds.count, trimmed.itemErpId.length], [0, 0, 0]);
    assert.deepEqual(
      [trimmed.serviceCode, trimmed.itemAdmission, trimmed.itemDischarge, trimmed.claimType].map(
        (c) => c.length,
      ),
      [0, 0, 0, 0],
    );
    const members = (v: typeof view) => {
      const ranking = memberRanking(v, decisions);
      return ranking.rows(0, ranking.count);
    };
    const providers = (v: typeof view) => rankProviders(v, providerEvidence(v, decisions), undefined);
    assert.deepEqual(members(trimmed), members(view));
    assert.deepEqual(providers(trimmed), providers(view));
    const features = (v: typeof view) => providerEvidence(v, decisions).map(tenantFeaturesOf);
    assert.deepEqual(features(trimmed), features(view));
  });
});
