import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STAY_OUTLIER_CODE, stayOutlierDetector } from "../../../../src/engine/fwa/detectors/stay-outlier.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item } from "../fixtures.js";
import { claimsWith, day, isFlag, only, run } from "./fixtures.js";

describe("fwa length of stay", () => {
  const stay = (k: number, days: number, dx = "J18.9", extra: Partial<BatchClaimInput> = {}) =>
    claim({
      claim_id: `S-${k}`,
      member_id: `M-${k}`,
      claim_type: "INSTITUTIONAL",
      claim_sub_type: "IN_PATIENT",
      medical_provider_type: "HOSPITAL",
      primary_diagnosis_code: dx,
      admission_date: day(k % 10),
      discharge_date: day((k % 10) + days),
      claim_items: [item({ service_code: "99223" }), item({ service_code: "ROOM", claimed_quantity: days })],
      ...extra,
    });
  /** 24 stays of 3, 4 and 5 days */
  const usual = () => Array.from({ length: 24 }, (_, k) => stay(k, 3 + (k % 3)));

  it("clean stays: no finding; a stay of 14 days: a finding on every item of the claim", () => {
    assert.deepEqual(only(run(stayOutlierDetector, usual())), []);
    const result = run(stayOutlierDetector, [...usual(), stay(99, 14)]);
    assert.deepEqual(claimsWith(result, STAY_OUTLIER_CODE), ["S-99"]);
    const findings = only(result);
    assert.equal(findings.length, 2);
    assert.equal(findings[0], findings[1]);
    isFlag(findings[0] as Finding);
    assert.match(
      findings[0]?.cause as string,
      /^stay of 14 days \(2026-03-10 to 2026-03-24\) against the batch median of 4 days for diagnosis J189 over 25 stays, 3\.5 times, 2\.8 times the upper quartile of 5 days \(robust z \d+(\.\d)?\)$/,
    );
  });

  it("stays spread evenly over a few days: past twice the upper quartile counts though the z is small", () => {
    // 1, 2 and 3 days: median 2, upper quartile 3, a robust z of only about 2.7 for 7 days on the log scale
    const even = Array.from({ length: 24 }, (_, k) => stay(k, 1 + (k % 3)));
    assert.deepEqual(
      only(run(stayOutlierDetector, [...even, stay(98, 4)])),
      [],
      "4 days: 1.3 times the upper quartile",
    );
    // 7 days, 2.3 times the upper quartile: a reason, too weak to flag alone (such stays are common in real claims)
    const result = run(stayOutlierDetector, [...even, stay(99, 7)]);
    assert.deepEqual(claimsWith(result, STAY_OUTLIER_CODE), ["S-99"]);
    const finding = only(result)[0] as Finding;
    assert.ok((finding.score as number) > 0.2 && (finding.score as number) < 0.5, `score ${finding.score}`);
    assert.match(
      finding.cause as string,
      /3\.5 times, 2\.3 times the upper quartile of 3 days \(robust z 2\.\d\)$/,
    );
    // 9 days, 3 times the upper quartile: flagged alone
    const [longer] = only(run(stayOutlierDetector, [...even, stay(99, 9)]));
    assert.ok((longer?.score as number) >= 0.5, `score ${longer?.score}`);
  });

  it("a rare diagnosis is compared with its category; missing, inverted and outpatient dates are left out", () => {
    const result = run(stayOutlierDetector, [
      ...usual(),
      stay(50, 15, "J18.0"),
      stay(51, 40, "J18.9", { claim_sub_type: "OUT_PATIENT" }),
      stay(52, 30, "J18.9", { discharge_date: undefined }),
      stay(53, 30, "J18.9", { admission_date: day(5), discharge_date: day(2) }),
    ]);
    assert.deepEqual(claimsWith(result, STAY_OUTLIER_CODE), ["S-50"]);
    assert.match(only(result)[0]?.cause as string, /for diagnosis category J18 over 25 stays/);
  });

  it("takes the items' dates when the claim has none; too few stays: nothing", () => {
    const byItems = stay(60, 20, "J18.9", {
      admission_date: undefined,
      discharge_date: undefined,
      claim_items: [
        item({ admission_date: `${day(1)}T10:00:00.000Z`, discharge_date: `${day(12)}T10:00:00.000Z` }),
        item({ admission_date: `${day(0)}T10:00:00.000Z`, discharge_date: `${day(21)}T10:00:00.000Z` }),
      ],
    });
    const result = run(stayOutlierDetector, [...usual(), byItems]);
    assert.match(only(result)[0]?.cause as string, /^stay of 21 days \(2026-03-01 to 2026-03-22\)/);
    assert.deepEqual(only(run(stayOutlierDetector, [...usual().slice(0, 10), stay(99, 30)])), []);
  });
});
