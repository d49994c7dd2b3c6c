import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../../src/engine/fwa/analyze.js";
import type { LabelledExample } from "../../../../src/engine/fwa/model/provider-model.js";
import { fitTenantModel, TENANT_FEATURES } from "../../../../src/engine/fwa/model/tenant-model.js";
import { auditScores, percentileRanks } from "../../../../src/engine/fwa/ranking/audit.js";
import { providerEvidence, rankProviders } from "../../../../src/engine/fwa/ranking/providers.js";
import { AUDIT } from "../../../../src/engine/fwa/sensitivity.js";
import { RICH_FEATURES } from "../../../../src/engine/fwa/stats/provider-features.js";
import { seededRandom } from "../../../../src/engine/fwa/stats/random.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item, viewOf } from "../fixtures.js";

const stay = (n: number, provider: string, from: string, days: number, amount: number): BatchClaimInput => {
  const discharge = new Date(Date.parse(from) + days * 86_400_000).toISOString().slice(0, 10);
  return claim({
    claim_id: `C-${n}`,
    claim_type: "INSTITUTIONAL",
    claim_sub_type: "IN_PATIENT",
    claim_date: from,
    admission_date: from,
    discharge_date: discharge,
    provider_id: provider,
    member_id: `M-${n}`,
    medical_provider_type: "HOSPITAL",
    primary_diagnosis_code: "I21.0",
    claim_items: [item({ claimed_amount: amount, service_code: "3893" })],
  });
};

/** 12 hospitals of 5 stays each over `months` months; H-0 bills far more over longer stays */
function batchOver(months: number): BatchClaimInput[] {
  const claims: BatchClaimInput[] = [];
  let n = 0;
  for (let h = 0; h < 12; h += 1)
    for (let k = 0; k < 5; k += 1) {
      const month = 1 + ((h + k) % months);
      const from = `2009-${String(month).padStart(2, "0")}-${String(1 + k).padStart(2, "0")}`;
      claims.push(stay(n++, `H-${h}`, from, h === 0 ? 20 : 3 + (k % 2), h === 0 ? 40_000 : 3_000 + 100 * h));
    }
  return claims;
}

function ranked(months: number, model?: Parameters<typeof rankProviders>[2]) {
  const view = viewOf(batchOver(months));
  const decisions = analyzeBatch(view, [], { flagThreshold: 0.5 });
  return rankProviders(view, providerEvidence(view, decisions), model);
}

describe("the yearly audit ranking", () => {
  it("ranks percentiles with ties", () => {
    assert.deepEqual(percentileRanks([3, 1, 2, 2]), [1, 0, 0.5, 0.5]);
    assert.deepEqual(percentileRanks([7]), [0.5]);
  });

  it("scores a weighted mean of ranks in each term's risky direction", () => {
    const rich = [0, 1, 2].map((k) => RICH_FEATURES.map(() => k));
    const scores = auditScores(rich, [0, 1, 2]);
    const total = AUDIT.terms.reduce((sum, t) => sum + Math.abs(t.weight), 0);
    const negative = AUDIT.terms.filter((t) => t.weight < 0).reduce((sum, t) => sum - t.weight, 0);
    // the highest on every feature ranks 1 on the positive terms, 0 on the negative ones
    assert.ok(Math.abs((scores[2]?.score as number) - (total - negative) / total) < 1e-12);
    assert.ok(Math.abs((scores[0]?.score as number) - negative / total) < 1e-12);
    assert.deepEqual(
      scores[2]?.ranks,
      AUDIT.terms.map((t) => (t.weight >= 0 ? 1 : 0)),
    );
  });

  it("ranks a batch of six months or more by the audit score, its reasons naming their figures", () => {
    const rows = ranked(AUDIT.minMonths);
    const top = rows[0];
    assert.equal(top?.id, "H-0");
    const codes = top?.reasons.map((r) => r.code) ?? [];
    assert.equal(codes[0], "FWA-AUDIT-AMOUNT");
    assert.ok(
      codes.every((code) => code.startsWith("FWA-AUDIT-")),
      codes.join(),
    );
    assert.match(
      top?.reasons[0]?.cause ?? "",
      /^200,000\.00 billed over 5 claims: higher than 100% of the batch's 11 other providers \(audit weight 3\)$/,
    );
    const longest = top?.reasons.find((r) => r.code === "FWA-AUDIT-LONGEST-STAY");
    assert.match(
      longest?.cause ?? "",
      /^its longest stay 20 days: higher than 100% of the batch's 11 other providers/,
    );
    // the score is the weighted mean of its ranks: within 0..1
    assert.ok(rows.every((r) => r.riskScore >= 0 && r.riskScore <= 1));
  });

  it("ranks a batch of fewer months by the logistic terms", () => {
    const rows = ranked(AUDIT.minMonths - 1);
    assert.equal(rows[0]?.id, "H-0");
    const codes = rows.flatMap((r) => r.reasons.map((reason) => reason.code));
    assert.ok(codes.length > 0 && codes.every((code) => code.startsWith("FWA-RANK-")), codes.join());
  });
});

describe("a learned model's ranking", () => {
  it("ranks by the boosted trees' probability, its reasons the features' contributions with their figures", () => {
    // outcomes where fraud is billing more than e^11 SAR in the batch (ln(1 + amount) above 11)
    const random = seededRandom(5);
    const amount = TENANT_FEATURES.indexOf("log_amount");
    const examples: LabelledExample[] = Array.from({ length: 300 }, (_, i) => {
      const features = TENANT_FEATURES.map(() => random());
      features[amount] = 9 + 4 * random();
      return { features, fraud: (features[amount] as number) > 11, provider: `P-${i}` };
    });
    const { model } = fitTenantModel(examples);
    assert.equal(model.kind, "boosted-trees");
    // a one-month batch: the model, not the audit, ranks it
    const rows = ranked(1, model);
    assert.equal(rows[0]?.id, "H-0");
    assert.ok((rows[0]?.riskScore as number) > 0.8, String(rows[0]?.riskScore));
    const reason = rows[0]?.reasons[0];
    assert.equal(reason?.code, "FWA-MODEL-LOG-AMOUNT");
    assert.match(reason?.cause ?? "", /^ln\(1 \+ amount in SAR\): 12\.206; the model weighs it \+[\d.]+$/);
    assert.match(reason?.description ?? "", /\(learned from 300 outcomes\)$/);
  });
});
