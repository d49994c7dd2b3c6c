import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../src/engine/fwa/analyze.js";
import { textAt } from "../../../src/engine/fwa/columns/texts.js";
import { flag, reject, supportingFlag } from "../../../src/engine/fwa/findings.js";
import { RULE_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { ClaimResultEncoder, resultSourceOf } from "../../../src/engine/fwa/result-bytes.js";
import { claimResult } from "../../../src/engine/fwa/results.js";
import { type Detector, type Finding, NO_ERP_ITEM_ID, statusOf } from "../../../src/engine/fwa/types.js";

const statuses = (codes: Uint8Array) => [...codes].map(statusOf);

import { claim, item, resultJsonOf, viewOf } from "./fixtures.js";

/** a detector that reports fixed findings: [itemIndex, finding] or ["claim", claimIndex, finding] */
const scripted = (
  name: string,
  script: (sinkItem: (i: number, f: Finding) => void, sinkClaim: (c: number, f: Finding) => void) => void,
): Detector => ({
  name,
  run: (_batch, sink) =>
    script(
      (i, f) => sink.item(i, f),
      (c, f) => sink.claim(c, f),
    ),
});

const FLAG = (score: number, fwa = false) => flag("FWA-TEST", "Test flag", `score ${score}`, score, fwa);
const REJECT = (fwa = false) => reject("NDC999", "Test reject", "because", fwa);
const SUPPORTING = (score: number) => supportingFlag("FWA-TEST-S", "Test support", `score ${score}`, score);

// claims: C-1 items 0,1; C-2 items 2,3,4; C-3 item 5; C-4 item 6
const FOUR = [
  claim({ claim_items: [item(), item()] }),
  claim({ claim_id: "C-2", claim_items: [item(), item(), item()] }),
  claim({ claim_id: "C-3" }),
  claim({ claim_id: "C-4" }),
];

describe("fwa analyzeBatch", () => {
  it("settles items, scores, claims, the summary and FWA cases", () => {
    const detector = scripted("test", (onItem, onClaim) => {
      // item 1: two weak signals add up to 0.75; item 0: one of them stays below the threshold
      onItem(0, FLAG(0.5));
      onItem(1, FLAG(0.5));
      // an FWA finding of 0.5 alone does not reach 0.7: C-1 is flagged, but no FWA case
      onItem(1, FLAG(0.5, true));
      onClaim(1, REJECT());
      onItem(3, FLAG(0.2, true));
      onItem(6, FLAG(0.1, true));
      // an FWA finding that flags by itself: C-3 is an FWA case
      onItem(5, FLAG(0.7, true));
    });
    const decisions = analyzeBatch(viewOf(FOUR), [detector], { flagThreshold: 0.7 });
    assert.deepEqual(statuses(decisions.itemStatus), [
      "approved",
      "flagged",
      "rejected",
      "rejected",
      "rejected",
      "flagged",
      "approved",
    ]);
    assert.deepEqual(
      [...decisions.itemScore].map((s) => Math.round(s * 1e6) / 1e6),
      [0.5, 0.75, 1, 1, 1, 0.7, 0.1],
    );
    assert.deepEqual(statuses(decisions.claimStatus), ["flagged", "rejected", "flagged", "approved"]);
    assert.deepEqual(decisions.summary, { approved: 1, flagged: 2, rejected: 1, FWA_cases: 1 });
    assert.deepEqual([...decisions.itemFindings.keys()].sort(), [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(
      decisions.itemFindings.get(3)?.map((f) => f.code),
      ["NDC999", "FWA-TEST"],
    );
    // a claim-level finding is one object shared by the claim's items
    assert.equal(decisions.itemFindings.get(2)?.[0], decisions.itemFindings.get(4)?.[0]);
    assert.equal(decisions.providerScore.size, 0);
    assert.equal(decisions.memberScore.size, 0);
  });

  it("a FLAG finding flags only through the score; a REJECT rejects whatever else", () => {
    const detector = scripted("test", (onItem) => {
      onItem(0, FLAG(0.49));
      onItem(1, FLAG(0.3));
      onItem(1, FLAG(0.3));
      onItem(2, FLAG(0.9));
      onItem(2, REJECT());
    });
    const decisions = analyzeBatch(viewOf(FOUR), [detector], { flagThreshold: 0.5 });
    assert.deepEqual(statuses(decisions.itemStatus).slice(0, 3), ["approved", "flagged", "rejected"]);
    assert.ok(Math.abs((decisions.itemScore[1] as number) - 0.51) < 1e-6);
    assert.equal(decisions.itemScore[2], 1);
  });

  it("counts FWA cases by the FWA findings alone: an FWA rejection, or FWA flags reaching the threshold", () => {
    const detector = scripted("test", (onItem) => {
      // C-1: two FWA findings of 0.3 add up to 0.51
      onItem(0, FLAG(0.3, true));
      onItem(0, FLAG(0.3, true));
      // C-2: a data error rejects, a weak FWA flag rides along: rejected, no FWA case
      onItem(2, REJECT());
      onItem(2, FLAG(0.2, true));
      // C-3: an FWA rejection (an exact duplicate)
      onItem(5, REJECT(true));
      // C-4: flagged by a non-FWA finding with a weak FWA one: no FWA case
      onItem(6, FLAG(0.45));
      onItem(6, FLAG(0.2, true));
    });
    const decisions = analyzeBatch(viewOf(FOUR), [detector], { flagThreshold: 0.5 });
    assert.deepEqual(statuses(decisions.claimStatus), ["flagged", "rejected", "rejected", "flagged"]);
    assert.deepEqual(decisions.summary, { approved: 0, flagged: 2, rejected: 2, FWA_cases: 2 });
  });

  it("a supporting finding raises the score but flags only beside a finding that is not supporting", () => {
    const detector = scripted("test", (onItem) => {
      // C-1 item 0: a supporting finding of 0.9 alone: approved with its score and reason; item 1: two of
      // them (0.96) still alone
      onItem(0, SUPPORTING(0.9));
      onItem(1, SUPPORTING(0.8));
      onItem(1, SUPPORTING(0.8));
      // C-3: supporting 0.4 beside an FWA finding of 0.2 (0.52): flagged, an FWA case
      onItem(5, SUPPORTING(0.4));
      onItem(5, FLAG(0.2, true));
      // C-4: supporting 0.9 beside a rejection: rejected
      onItem(6, SUPPORTING(0.9));
      onItem(6, REJECT());
    });
    const decisions = analyzeBatch(viewOf(FOUR), [detector], { flagThreshold: 0.5 });
    assert.deepEqual(statuses(decisions.itemStatus).slice(0, 2), ["approved", "approved"]);
    assert.ok(Math.abs((decisions.itemScore[0] as number) - 0.9) < 1e-6);
    assert.ok(Math.abs((decisions.itemScore[1] as number) - 0.96) < 1e-6);
    assert.deepEqual(
      decisions.itemFindings.get(0)?.map((f) => [f.code, f.supporting]),
      [["FWA-TEST-S", true]],
    );
    assert.ok(Math.abs((decisions.itemScore[5] as number) - 0.52) < 1e-6);
    assert.deepEqual(statuses(decisions.claimStatus), ["approved", "approved", "flagged", "rejected"]);
    assert.deepEqual(decisions.summary, { approved: 2, flagged: 1, rejected: 1, FWA_cases: 1 });
  });

  it("keeps the highest entity score per provider and member, clamped", () => {
    const view = viewOf([claim(), claim({ claim_id: "C-2", provider_id: "P-2", member_id: "M-2" })]);
    const p1 = view.providerId[0] as number;
    const p2 = view.providerId[1] as number;
    const m1 = view.memberId[0] as number;
    const a: Detector = {
      name: "a",
      run: (_batch, sink) => {
        sink.entity("provider", p1, 0.4);
        sink.entity("provider", p2, 1.7);
        sink.entity("member", m1, 0.2);
      },
    };
    const b: Detector = {
      name: "b",
      run: (_batch, sink) => {
        sink.entity("provider", p1, 0.3);
        sink.entity("provider", p1, 0.6);
        sink.entity("member", m1, Number.NaN);
      },
    };
    const decisions = analyzeBatch(view, [a, b], { flagThreshold: 0.5 });
    assert.deepEqual([...decisions.providerScore].sort(), [
      [p1, 0.6],
      [p2, 1],
    ]);
    assert.deepEqual([...decisions.memberScore], [[m1, 0.2]]);
    // entity scores alone settle no item
    assert.deepEqual(decisions.summary, { approved: 2, flagged: 0, rejected: 0, FWA_cases: 0 });
    const bad: Detector = { name: "bad", run: (_batch, sink) => sink.entity("provider", -1, 0.5) };
    assert.throws(() => analyzeBatch(view, [bad], { flagThreshold: 0.5 }), /detector bad: provider id -1/);
  });

  it("flags by threshold, clamps scores, counts FWA on rejected claims too", () => {
    const odd: Finding = { ...FLAG(0), score: Number.NaN };
    const detector = scripted("test", (onItem) => {
      onItem(0, { ...FLAG(0), score: 7 });
      onItem(5, odd);
      onItem(6, REJECT(true));
    });
    const decisions = analyzeBatch(viewOf(FOUR), [detector], { flagThreshold: 1 });
    assert.equal(decisions.itemScore[0], 1);
    assert.equal(decisions.itemScore[5], 0);
    assert.equal(statusOf(decisions.itemStatus[0]), "flagged");
    assert.equal(statusOf(decisions.itemStatus[5]), "approved", "a FLAG finding does not flag by itself");
    assert.deepEqual(decisions.summary, { approved: 2, flagged: 1, rejected: 1, FWA_cases: 1 });
  });

  it("runs the detectors in order and keeps their findings' order", () => {
    const a = scripted("a", (onItem) => onItem(0, FLAG(0.1)));
    const b = scripted("b", (_onItem, onClaim) => onClaim(0, REJECT()));
    const decisions = analyzeBatch(viewOf(FOUR), [a, b], { flagThreshold: 0.5 });
    assert.deepEqual(
      decisions.itemFindings.get(0)?.map((f) => f.code),
      ["FWA-TEST", "NDC999"],
    );
  });

  it("refuses a threshold outside (0, 1] and indexes out of range", () => {
    const view = viewOf(FOUR);
    for (const flagThreshold of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => analyzeBatch(view, [], { flagThreshold }), RangeError);
    }
    const bad = scripted("bad", (onItem) => onItem(7, FLAG(0.1)));
    assert.throws(() => analyzeBatch(view, [bad], { flagThreshold: 0.5 }), /detector bad: item index 7/);
    const badClaim = scripted("bad", (_onItem, onClaim) => onClaim(4, FLAG(0.1)));
    assert.throws(() => analyzeBatch(view, [badClaim], { flagThreshold: 0.5 }), /claim index 4/);
  });

  it("approves a clean batch with the rule detectors", () => {
    const distinct = FOUR.map((c, k) => ({
      ...c,
      claim_items: c.claim_items.map((i, n) => ({ ...i, service_code: `S-${k}-${n}` })),
    }));
    const decisions = analyzeBatch(viewOf(distinct), RULE_DETECTORS, { flagThreshold: 0.5 });
    assert.deepEqual(decisions.summary, { approved: 4, flagged: 0, rejected: 0, FWA_cases: 0 });
    assert.equal(decisions.itemFindings.size, 0);
  });
});

describe("fwa results", () => {
  const context = { batchId: "B-1", analyzedAt: "2026-03-12T08:00:00.000Z" };

  it("gives the spec's shape; erp_claim_item_id falls back to <claim_id>-<n>", () => {
    const claims = [
      claim({ claim_items: [item()] }),
      claim({
        claim_id: "C-2",
        insurance_start_date: "2026-03-11",
        claim_items: [item({ erp_item_id: "ERP-7", service_code: "83036" }), item({ service_code: "80061" })],
      }),
    ];
    const view = viewOf(claims);
    const extra = scripted("x", (onItem) => onItem(2, FLAG(1 / 3)));
    const decisions = analyzeBatch(view, [...RULE_DETECTORS, extra], { flagThreshold: 0.5 });
    assert.deepEqual(claimResult(view, decisions, 0, context), {
      claim_id: "C-1",
      status: "approved",
      erp_claim_id: "C-1",
      provider_id: claims[0]?.provider_id,
      claim_items: [{ erp_claim_item_id: "C-1-1", status: "approved", ai_score: 0, reasons: [] }],
    });
    const second = claimResult(view, decisions, 1, context);
    const ndc034 = {
      createdAt: context.analyzedAt,
      code: "NDC034",
      description: "Service before insurance start",
      cause: "claim date 2026-03-10 is before the insurance start 2026-03-11",
      typeDecision: "REJECT",
      source: "rules",
    };
    assert.deepEqual(second, {
      claim_id: "C-2",
      status: "rejected",
      erp_claim_id: "C-2",
      provider_id: claims[1]?.provider_id,
      claim_items: [
        {
          erp_claim_item_id: "ERP-7",
          status: "rejected",
          ai_score: 1,
          reasons: [{ id: "B-1:1:1", ...ndc034 }],
        },
        {
          erp_claim_item_id: "C-2-2",
          status: "rejected",
          ai_score: 1,
          reasons: [
            { id: "B-1:2:1", ...ndc034 },
            {
              id: "B-1:2:2",
              createdAt: context.analyzedAt,
              code: "FWA-TEST",
              description: "Test flag",
              cause: `score ${1 / 3}`,
              typeDecision: "FLAG",
              source: "ai",
            },
          ],
        },
      ],
    });
  });

  it("rounds ai_score to 4 decimals", () => {
    const claims = [claim()];
    const view = viewOf(claims);
    const decisions = analyzeBatch(view, [scripted("x", (onItem) => onItem(0, FLAG(1 / 3)))], {
      flagThreshold: 0.5,
    });
    const result = claimResult(view, decisions, 0, context);
    assert.equal(result.claim_items[0]?.ai_score, 0.3333);
    assert.equal(result.status, "approved", "0.3333 is below the threshold 0.5");
  });

  it("keeps only the item ids that are not the default, and refuses an index beyond the batch", () => {
    const claims = [claim({ claim_items: [item({ erp_item_id: "C-1-1" }), item({ erp_item_id: "X-9" })] })];
    const view = viewOf(claims);
    assert.deepEqual(
      [...view.itemErpId].map((id) => (id === NO_ERP_ITEM_ID ? null : textAt(view.erpItemIds, id))),
      [null, "X-9"],
    );
    const decisions = analyzeBatch(view, [], { flagThreshold: 0.5 });
    assert.deepEqual(
      claimResult(view, decisions, 0, context).claim_items.map((i) => i.erp_claim_item_id),
      ["C-1-1", "X-9"],
    );
    assert.equal(
      resultJsonOf(view, decisions, context)(0),
      JSON.stringify(claimResult(view, decisions, 0, context)),
    );
    assert.throws(() => claimResult(view, decisions, 1, context), /no claim 1/);
    assert.throws(() => resultJsonOf(view, decisions, context)(1), /no claim 1/);
  });

  it("writes ids as bytes exactly as JSON.stringify escapes them, claim after claim", () => {
    const awkward = ['C"1', "C\\2", "C\t3", "مطالبة-4", "C-😀-5", "C\u007f6", "plain-7"];
    const claims = awkward.map((id, n) =>
      claim({
        claim_id: id,
        provider_id: n % 2 === 0 ? `P"${n}` : "P-1",
        claim_items: [item(), item({ erp_item_id: `${awkward[(n + 1) % awkward.length]}-x` }), item()],
      }),
    );
    const view = viewOf(claims);
    const decisions = analyzeBatch(view, [], { flagThreshold: 0.5 });
    const encoder = new ClaimResultEncoder(resultSourceOf(view, decisions, context));
    const decoder = new TextDecoder();
    claims.forEach((_claim, c) => {
      const expected = JSON.stringify(claimResult(view, decisions, c, context));
      assert.equal(decoder.decode(encoder.encode(c)), expected, `claim ${awkward[c]}`);
    });
    assert.equal(claimResult(view, decisions, 2, context).claim_items[0]?.erp_claim_item_id, "C\t3-1");
  });
});
