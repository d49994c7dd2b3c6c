/**
 * A generated batch of 25,000 claims x 4 items (100,000 items) through both passes and the results. The data
 * is clean by construction (unit amounts differ per item, diagnoses are neither sex- nor age-specific), with
 * one planted anomaly per claim kind (claim index mod 100), so every count is known in advance. Not a timed
 * test: the time of the two passes is only reported as a diagnostic.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../src/engine/fwa/analyze.js";
import { createColumnarBuilder } from "../../../src/engine/fwa/columns/columnar.js";
import { isoOfDay } from "../../../src/engine/fwa/columns/days.js";
import { flag } from "../../../src/engine/fwa/findings.js";
import { RULE_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { claimResult } from "../../../src/engine/fwa/results.js";
import { DISCHARGE_BEFORE_ADMISSION_CODE } from "../../../src/engine/fwa/rules/discharge-before-admission.js";
import { type Detector, statusOf } from "../../../src/engine/fwa/types.js";
import type { BatchClaimInput, BatchClaimItemInput } from "../../../src/modules/claims-batch/claim.js";
import { resultJsonOf } from "./fixtures.js";

const CLAIMS = 25_000;
const ITEMS_PER_CLAIM = 4;
const DAY0 = Date.UTC(2026, 0, 1) / 86_400_000;
const NEUTRAL_DX = ["E11.9", "I10", "J06.9", "K21.9", "M54.5", "R51"];

/** mulberry32: a small deterministic PRNG */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) as number;
  };
}

function generate(): BatchClaimInput[] {
  const next = prng(20260310);
  const claims: BatchClaimInput[] = [];
  for (let c = 0; c < CLAIMS; c += 1) {
    const kind = c % 100;
    const previous = claims[c - 1];
    if (kind === 11 && previous !== undefined) {
      // a resubmission of the clean claim before it (kind 10)
      claims.push({ ...previous, claim_id: `CLM-${c}` });
      continue;
    }
    const claimDay = DAY0 + next(300);
    const claimDate = isoOfDay(claimDay);
    const female = next(2) === 1;
    const items: BatchClaimItemInput[] = [];
    for (let k = 0; k < ITEMS_PER_CLAIM; k += 1) {
      items.push({
        claimed_quantity: 1 + next(8),
        // unique per item: no accidental duplicates
        claimed_amount: 10 + (c * ITEMS_PER_CLAIM + k) / 100,
        service_code: `S${next(200)}`,
        service_description: "service",
        erp_item_id: next(2) === 0 ? `ERP-${c}-${k}` : undefined,
      });
    }
    const claim: BatchClaimInput = {
      claim_id: `CLM-${c}`,
      claim_type: next(2) === 0 ? "PROFESSIONAL" : "INSTITUTIONAL",
      claim_sub_type: "OUT_PATIENT",
      claim_date: claimDate,
      primary_diagnosis_code: NEUTRAL_DX[next(NEUTRAL_DX.length)] as string,
      primary_diagnosis_description: "diagnosis",
      secondary_diagnosis_codes:
        next(2) === 0
          ? [{ type: "secondary", code: NEUTRAL_DX[next(NEUTRAL_DX.length)] as string, name: "dx" }]
          : [],
      member_id: `M-${next(5000)}`,
      member_dob: `${1950 + next(55)}-0${1 + next(9)}-1${next(10)}T00:00:00.000Z`,
      member_gender: female ? "FEMALE" : "MALE",
      provider_id: `P-${next(300)}`,
      medical_provider_type: "CLINIC",
      ph_id: `PH-${next(50)}`,
      insurance_start_date: "2025-01-01",
      claim_items: items,
    };
    const first = items[0] as BatchClaimItemInput;
    if (kind === 0 || kind === 1) claim.insurance_start_date = isoOfDay(claimDay + 1);
    if (kind === 2) claim.member_dob = `${isoOfDay(claimDay + 3)}T00:00:00.000Z`;
    if (kind === 3)
      Object.assign(claim, { admission_date: isoOfDay(claimDay), discharge_date: isoOfDay(claimDay - 2) });
    if (kind === 4) {
      Object.assign(items[1] as BatchClaimItemInput, {
        admission_date: `${isoOfDay(claimDay)}T10:00:00.000Z`,
        discharge_date: `${isoOfDay(claimDay - 1)}T10:00:00.000Z`,
      });
    }
    if (kind === 5) claim["pre-auth_status"] = "PENDING";
    if (kind === 6)
      claim.secondary_diagnosis_codes = [{ type: "secondary", code: female ? "N40.0" : "N76.0", name: "dx" }];
    if (kind === 7) claim.primary_diagnosis_code = "P07.3";
    if (kind === 8 || kind === 22) claim["pre-auth_status"] = "REJECTED";
    if (kind === 12) items[3] = { ...first };
    if (kind === 20) (items[2] as BatchClaimItemInput).claimed_quantity = 9;
    if (kind === 22) first.claimed_quantity = 10;
    claims.push(claim);
  }
  return claims;
}

/** a stand-in statistical detector: quantities of 9 or more are flagged (score 0.6, an FWA finding) */
const bigQuantity: Detector = {
  name: "test-big-quantity",
  run(batch, sink) {
    for (let i = 0; i < batch.itemCount; i += 1) {
      const quantity = batch.quantity[i] as number;
      if (quantity >= 9) sink.item(i, flag("FWA-TEST-QTY", "Large quantity", `quantity ${quantity}`, 0.6));
    }
  },
};

describe("fwa generated batch of 100,000 items", () => {
  it("settles every planted anomaly and nothing else", (t) => {
    const claims = generate();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const builder = createColumnarBuilder();
    for (const claim of claims) builder.add(claim);
    const view = builder.finish();
    const built = performance.now();
    const decisions = analyzeBatch(view, [...RULE_DETECTORS, bigQuantity], { flagThreshold: 0.5 });
    const analyzed = performance.now();
    const heapAfter = process.memoryUsage().heapUsed;
    t.diagnostic(
      `pass one ${(built - started).toFixed(1)} ms, pass two ${(analyzed - built).toFixed(1)} ms, ` +
        `heap +${((heapAfter - heapBefore) / 1_048_576).toFixed(1)} MiB (before GC)`,
    );

    assert.equal(view.claimCount, CLAIMS);
    assert.equal(view.itemCount, CLAIMS * ITEMS_PER_CLAIM);
    const per100 = CLAIMS / 100;
    // rejected claims: kinds 0 1 2 3 4 6 7 8 11 12 22; flagged: 20; FWA: 11 12 20 22
    assert.deepEqual(decisions.summary, {
      approved: 88 * per100,
      flagged: 1 * per100,
      rejected: 11 * per100,
      FWA_cases: 4 * per100,
    });
    const items = { approved: 0, flagged: 0, rejected: 0 };
    for (const code of decisions.itemStatus) items[statusOf(code)] += 1;
    assert.deepEqual(items, { approved: 361 * per100, flagged: 1 * per100, rejected: 38 * per100 });

    const codes = new Map<string, number>();
    for (const findings of decisions.itemFindings.values()) {
      for (const finding of findings) codes.set(finding.code, (codes.get(finding.code) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries([...codes].sort()), {
      [DISCHARGE_BEFORE_ADMISSION_CODE]: 5 * per100,
      "FWA-TEST-QTY": 2 * per100,
      NDC001: 8 * per100,
      NDC034: 8 * per100,
      NDC052: 4 * per100,
      NDC053: 4 * per100,
      NDC069: 4 * per100,
      NDC076: 4 * per100,
      NDC081: 1 * per100,
    });
    for (const [item, findings] of decisions.itemFindings) {
      const expected = findings.some((f) => f.typeDecision === "REJECT") ? 1 : 0.6;
      assert.ok(Math.abs((decisions.itemScore[item] as number) - expected) < 1e-6);
    }

    // the results of every claim, one row (item) each
    const context = { batchId: "BATCH-1", analyzedAt: "2026-12-01T00:00:00.000Z" };
    const byStatus = { approved: 0, flagged: 0, rejected: 0 };
    const reasonIds = new Set<string>();
    let rows = 0;
    const resultJson = resultJsonOf(view, decisions, context);
    claims.forEach((_claim, c) => {
      const result = claimResult(view, decisions, c, context);
      assert.equal(resultJson(c), JSON.stringify(result));
      byStatus[result.status] += 1;
      for (const item of result.claim_items) for (const reason of item.reasons) reasonIds.add(reason.id);
      rows += result.claim_items.length;
      if (c === 12) {
        assert.deepEqual(
          result.claim_items.map((i) => [i.status, i.ai_score, i.reasons.map((r) => r.code).join()]),
          [
            ["approved", 0, ""],
            ["approved", 0, ""],
            ["approved", 0, ""],
            ["rejected", 1, "NDC081"],
          ],
        );
      }
    });
    const { FWA_cases: _, ...claimCounts } = decisions.summary;
    assert.deepEqual(byStatus, claimCounts);
    assert.equal(
      reasonIds.size,
      [...codes.values()].reduce((a, b) => a + b),
    );
    assert.equal(rows, CLAIMS * ITEMS_PER_CLAIM);
  });
});
