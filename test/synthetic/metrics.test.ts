import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createColumnarBuilder } from "../../src/engine/fwa/columns/columnar.js";
import { rocAuc } from "../../src/engine/fwa/model/quality.js";
import {
  type BatchDecisions,
  type Finding,
  ITEM_STATUSES,
  type ItemStatus,
} from "../../src/engine/fwa/types.js";

const codesOf = (statuses: ItemStatus[]) =>
  Uint8Array.from(statuses, (status) => ITEM_STATUSES.indexOf(status));

import type { BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import {
  ENTITY_THRESHOLD,
  evaluate,
  type FwaPattern,
  precision,
  recall,
  type TruthRecord,
} from "../../synthetic/index.js";

describe("FWA benchmark figures", () => {
  it("precision and recall", () => {
    assert.equal(precision(3, 1), 0.75);
    assert.equal(recall(3, 1), 0.75);
    assert.equal(recall(0, 4), 0);
    assert.ok(Number.isNaN(precision(0, 0)));
  });

  it("ROC-AUC, exactly, ties counting a half", () => {
    assert.equal(rocAuc([0.9, 0.8], [0.1, 0.2]), 1);
    assert.equal(rocAuc([0.1], [0.9, 0.8]), 0);
    assert.equal(rocAuc([0.5, 0.5], [0.5, 0.5, 0.5]), 0.5);
    // pairs: 0.9 beats both; each 0.5 ties 0.5 (a half) and beats 0.1: (2 + 1.5 + 1.5) / 6
    assert.equal(rocAuc([0.9, 0.5, 0.5], [0.5, 0.1]), 5 / 6);
    // against a brute count over every pair
    const pos = Array.from({ length: 300 }, (_, i) => Math.round(Math.sin(i) * 10) / 10);
    const neg = Array.from({ length: 200 }, (_, i) => Math.round(Math.cos(i * 3) * 8) / 10);
    let wins = 0;
    for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
    assert.ok(Math.abs(rocAuc(pos, neg) - wins / (pos.length * neg.length)) < 1e-12);
    assert.ok(Number.isNaN(rocAuc([], [1])));
    assert.throws(() => rocAuc([Number.NaN], [1]), /NaN/);
  });

  it("holds decisions against the truth", () => {
    const claim = (id: string, provider: string, member: string, items: number): BatchClaimInput => ({
      ...{
        claim_id: id,
        claim_type: "PROFESSIONAL",
        claim_sub_type: "OUT_PATIENT",
        claim_date: "2026-01-10",
      },
      ...{ primary_diagnosis_code: "J06.9", primary_diagnosis_description: "URI", member_id: member },
      ...{ member_dob: "1990-01-01T00:00:00.000Z", member_gender: "MALE", provider_id: provider },
      ...{ medical_provider_type: "CLINIC", ph_id: "PH-1", insurance_start_date: "2025-01-01" },
      claim_items: Array.from({ length: items }, (_, k) => ({
        ...{ claimed_quantity: 1, claimed_amount: 100, service_code: `S${k}`, service_description: "x" },
      })),
    });
    // A clean (a1 flagged), B price-inflated (caught), C quantity-inflated c1 (missed; c0 context),
    // D an upcoding provider's visit (rejected), E clean
    const claims = [
      claim("A", "P1", "M1", 2),
      claim("B", "P1", "M2", 1),
      claim("C", "P1", "M3", 2),
      claim("D", "P2", "M4", 1),
      claim("E", "P3", "M5", 1),
    ];
    const truth: TruthRecord[] = [
      { level: "claim", claim_id: "B", pattern: "price_inflation", role: "changed" },
      { level: "item", claim_id: "B", item_index: 0, pattern: "price_inflation" },
      { level: "claim", claim_id: "C", pattern: "quantity_inflation", role: "changed" },
      { level: "item", claim_id: "C", item_index: 1, pattern: "quantity_inflation" },
      { level: "provider", provider_id: "P2", pattern: "upcoding_provider" },
      { level: "claim", claim_id: "D", pattern: "upcoding_provider", role: "changed" },
      { level: "item", claim_id: "D", item_index: 0, pattern: "upcoding_provider" },
    ];
    const builder = createColumnarBuilder();
    for (const c of claims) builder.add(c);
    const view = builder.finish();
    const finding = (code: string, score: number): Finding => ({
      ...{ code, description: code, cause: code, typeDecision: score === 1 ? "REJECT" : "FLAG" },
      ...{ source: score === 1 ? "rules" : "ai", score, fwa: true },
    });
    // items: a0 a1 b0 c0 c1 d0 e0; c0 (unlabelled, on a touched claim) is flagged too
    const status: ItemStatus[] = [
      "approved",
      "flagged",
      "flagged",
      "flagged",
      "approved",
      "rejected",
      "approved",
    ];
    const decisions: BatchDecisions = {
      itemStatus: codesOf(status),
      itemScore: Float32Array.from([0.1, 0.6, 0.9, 0.7, 0.4, 1, 0]),
      itemFindings: new Map([
        [1, [finding("X", 0.6)]],
        [2, [finding("Y", 0.9)]],
        [3, [finding("Y", 0.5), finding("Z", 0.4)]],
        [5, [finding("Z", 1)]],
      ]),
      claimStatus: codesOf(["flagged", "flagged", "flagged", "rejected", "approved"]),
      summary: { approved: 1, flagged: 3, rejected: 1, FWA_cases: 4 },
      providerScore: new Map([[view.providerId[3] as number, 0.8]]),
      memberScore: new Map(),
    };
    const figures = evaluate(claims, truth, view, decisions);
    assert.equal(figures.cleanClaims, 2);
    assert.equal(figures.cleanClaimFpRate, 0.5);
    assert.equal(figures.cleanItemFpRate, 1 / 3);
    assert.equal(figures.labelledItems, 3);
    const o = figures.overall;
    assert.deepEqual([o.predicted, o.detected, o.recall, o.precision], [4, 2, 2 / 3, 2 / 4]);
    assert.equal(o.precisionAgainstClean, 2 / 3);
    const row = (p: FwaPattern) => figures.patterns.find((r) => r.pattern === p);
    // c0, a false positive outside clean claims, carries Y (seen on price inflation) and Z (on upcoding): half
    // each; a1, on a clean claim, carries X, never seen on a labelled item: unattributed
    for (const p of ["price_inflation", "upcoding_provider"] as const) {
      const r = row(p);
      assert.deepEqual([r?.recall, r?.falsePositives, r?.precision, r?.precisionVsClean], [1, 0.5, 2 / 3, 1]);
    }
    assert.deepEqual(row("price_inflation")?.codes, ["Y"]);
    assert.equal(figures.unattributedFalsePositives, 1);
    assert.equal(row("quantity_inflation")?.recall, 0);
    assert.equal(row("quantity_inflation")?.met, false);
    const entity = row("upcoding_provider")?.entity;
    assert.deepEqual(entity, { level: "provider", labelled: 1, detected: 1, recall: 1 });
    const x = figures.codes.find((c) => c.code === "X");
    assert.deepEqual(x, { code: "X", items: 1, labelled: 0, clean: 1, patterns: {} });
    assert.deepEqual(figures.codes.find((c) => c.code === "Y")?.patterns, { price_inflation: 1 });
    // items: positives 0.9, 0.4, 1 against clean 0.1, 0.6, 0: 8 of 9 pairs
    assert.ok(Math.abs(figures.itemAuc.auc - 8 / 9) < 1e-6);
    // providers: P2 by its score 0.8, P1 and P3 by their items' mean (0.54, 0)
    assert.deepEqual(
      [figures.providerAuc.auc, figures.providerAuc.fromEntityScore, figures.providerAuc.fromItemMean],
      [1, 1, 2],
    );
    assert.ok(ENTITY_THRESHOLD > 0 && ENTITY_THRESHOLD < 1);
    assert.equal(figures.targets.of, 3 + 2);
  });
});
