import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EngineContext, EngineRequest, PeerStats } from "../../../src/engine/prior-auth/types.js";
import {
  codesOf,
  DEFAULT_SETTINGS,
  makeContext,
  makeCoverage,
  makeItem,
  makePeers,
  makeRequest,
  reasonOf,
  run,
} from "./fixtures.js";

const withPeers = (peers: PeerStats, request: EngineRequest, overrides: Partial<EngineContext> = {}) =>
  run(request, makeContext(request, { peers: new Map([["83036", peers]]), ...overrides }));

/** 31 approved items of 83036 at a median of 340.00 SAR, MAD 30.00 */
const LAB_PEERS = makePeers({ medianUnitAmount: 34_000, madUnitAmount: 3_000 });

describe("engine: anomaly score", () => {
  it("scores a normal item 0 and approves it", () => {
    const decision = withPeers(LAB_PEERS, makeRequest({ items: [makeItem({ unitAmount: 36_000 })] }));
    const item = decision.items[0];
    assert.deepEqual([item?.outcome, item?.aiScore, item?.aiAlert, item?.reasons], ["APPROVED", 0, null, []]);
    assert.deepEqual(decision.requestAlerts, []);
  });

  it("holds a 12x price outlier for the reviewer, with what the rules would approve as held", () => {
    const decision = withPeers(LAB_PEERS, makeRequest({ items: [makeItem({ unitAmount: 420_000 })] }));
    const item = decision.items[0];
    assert.equal(item?.outcome, "PENDING_REVIEW");
    assert.equal(item?.approved, false);
    assert.ok((item?.aiScore ?? 0) >= DEFAULT_SETTINGS.autoApprovalThreshold);
    assert.equal(item?.aiScore, 1);
    assert.deepEqual(
      [
        item?.approvedQuantity,
        item?.approvedAmount,
        item?.netPayable,
        item?.heldAmount,
        item?.rejectedAmount,
      ],
      [0, 0, 0, 420_000, 0],
    );
    const signal =
      "unit price 4,200.00 is 12.4 x the median 340.00 of 31 approved items of 83036 (robust z 86.8)";
    assert.deepEqual(item?.reasons, [
      { code: "MZ-AI-01", nphiesCode: null, message: signal, source: "ai" },
      {
        code: "MZ-AI-05",
        nphiesCode: null,
        message: "score 1.00 is above the auto-approval threshold 0.70: 4,200.00 held for the reviewer",
        source: "ai",
      },
    ]);
    assert.equal(item?.aiAlert, `held for review (score 1.00): ${signal}`);
    assert.deepEqual(decision.requestAlerts, [
      "anomaly score: 1 of 1 item flagged (highest 1.00), 1 held for review",
    ]);
    assert.equal(
      decision.note,
      "1 item: 1 held for review; SAR 0.00 of 4,200.00 approved, 4,200.00 held for review",
    );
  });

  it("needs at least 5 peers", () => {
    const decision = withPeers(
      { ...LAB_PEERS, count: 4 },
      makeRequest({ items: [makeItem({ unitAmount: 420_000 })] }),
    );
    assert.deepEqual([decision.items[0]?.outcome, decision.items[0]?.aiScore], ["APPROVED", 0]);
  });

  it("grows the signal from z 2 to z 6 and alerts below the threshold", () => {
    // scale 1.4826 x 10.00 = 14.826; 159.31 is z 4.0: half the signal
    const peers = makePeers({ medianUnitAmount: 10_000, madUnitAmount: 1_000 });
    const decision = withPeers(peers, makeRequest({ items: [makeItem({ unitAmount: 15_931 })] }));
    const item = decision.items[0];
    assert.equal(item?.outcome, "APPROVED");
    assert.equal(item?.aiScore, 0.5001);
    assert.equal(
      item?.aiAlert,
      "score 0.50: unit price 159.31 is 1.6 x the median 100.00 of 31 approved items of 83036 (robust z 4.0)",
    );
    assert.deepEqual(codesOf(decision), ["MZ-AI-01"]);
    assert.equal(
      withPeers(peers, makeRequest({ items: [makeItem({ unitAmount: 12_900 })] })).items[0]?.aiScore,
      0,
    );
  });

  it("floors the scale at 10% of the median when the peers do not vary", () => {
    const uniform = makePeers({ medianUnitAmount: 10_000, madUnitAmount: 0 });
    assert.equal(
      withPeers(uniform, makeRequest({ items: [makeItem({ unitAmount: 11_500 })] })).items[0]?.aiScore,
      0,
    );
    assert.equal(
      withPeers(uniform, makeRequest({ items: [makeItem({ unitAmount: 14_000 })] })).items[0]?.aiScore,
      0.5,
    );
  });

  it("scores the quantity the same way, and combines signals as 1 - prod(1 - s)", () => {
    const quantity = withPeers(makePeers(), makeRequest({ items: [makeItem({ quantity: 5 })] }));
    assert.equal(quantity.items[0]?.aiScore, 0.5);
    assert.equal(
      reasonOf(quantity, "MZ-AI-02").message,
      "quantity 5 is 5.0 x the median 1 of 31 approved items of 83036 (robust z 4.0)",
    );
    // price 0.5 and quantity 0.5: 1 - 0.5 x 0.5 = 0.75, above the threshold
    const both = withPeers(
      makePeers({ madUnitAmount: 0 }),
      makeRequest({ items: [makeItem({ quantity: 5, unitAmount: 14_000 })] }),
    );
    assert.equal(both.items[0]?.aiScore, 0.75);
    assert.equal(both.items[0]?.outcome, "PENDING_REVIEW");
    assert.equal(both.items[0]?.heldAmount, 70_000);
    assert.deepEqual(codesOf(both), ["MZ-AI-01", "MZ-AI-02", "MZ-AI-05"]);
  });

  it("flags a diagnosis never seen with the service once there is enough history", () => {
    const request = makeRequest();
    const score = (pairTotal: number, seen = 0) =>
      run(request, makeContext(request, { pairTotal, pairCounts: new Map([["E119|83036", seen]]) })).items[0]
        ?.aiScore;
    assert.deepEqual(
      [score(49), score(50), score(500), score(5_000), score(500_000), score(500, 1)],
      [0, 0.3, 0.4, 0.5, 0.5, 0],
    );
    const decision = run(request, makeContext(request, { pairTotal: 500 }));
    assert.equal(decision.items[0]?.outcome, "APPROVED");
    assert.deepEqual(reasonOf(decision, "MZ-AI-03"), {
      code: "MZ-AI-03",
      nphiesCode: null,
      message: "primary diagnosis E119 has never been seen with service 83036 in 500 requests",
      source: "ai",
    });
  });

  it("scores the member's activity on every item and alerts once for the request", () => {
    const request = makeRequest({ items: [makeItem(), makeItem({ serviceCode: "80061" })] });
    const busy = run(request, makeContext(request, { memberActivity: { requests: 15, providers: 2 } }));
    assert.deepEqual(
      busy.items.map((item) => [item.outcome, item.aiScore]),
      [
        ["APPROVED", 0.5],
        ["APPROVED", 0.5],
      ],
    );
    const message = "the member had 15 requests from 2 providers in the 30 days before the treatment date";
    assert.equal(reasonOf(busy, "MZ-AI-04", 1).message, message);
    assert.deepEqual(busy.requestAlerts, [
      `member pattern: ${message}`,
      "anomaly score: 2 of 2 items flagged (highest 0.50), 0 held for review",
    ]);
    const shopping = run(request, makeContext(request, { memberActivity: { requests: 4, providers: 4 } }));
    assert.equal(shopping.items[0]?.aiScore, 0.25);
    const quiet = run(request, makeContext(request, { memberActivity: { requests: 5, providers: 2 } }));
    assert.deepEqual(quiet.requestAlerts, []);
  });

  it("holds only what the rules approve: a rejected item stays rejected, a cut one holds the cut amount", () => {
    const outlier = makeItem({ unitAmount: 420_000, serviceDescription: "Hysterectomy" });
    const rejected = withPeers(LAB_PEERS, makeRequest({ items: [outlier] }));
    assert.equal(rejected.items[0]?.outcome, "REJECTED");
    assert.equal(rejected.items[0]?.aiScore, 1);
    assert.deepEqual(codesOf(rejected), ["MZ-CLIN-06", "MZ-AI-01"]);
    const request = makeRequest({ items: [makeItem({ quantity: 2, unitAmount: 420_000 })] });
    const cut = withPeers(LAB_PEERS, request, {
      prices: [{ unitPrice: 400_000, priceListErpId: "PL-1", priceItemErpId: "PI-1" }],
    });
    const item = cut.items[0];
    assert.equal(item?.outcome, "PENDING_REVIEW");
    assert.deepEqual(
      [item?.approvedAmount, item?.priceRejectedAmount, item?.heldAmount, item?.rejectedAmount],
      [0, 40_000, 800_000, 0],
    );
    assert.deepEqual(codesOf(cut), ["MZ-PRICE-01", "MZ-AI-01", "MZ-AI-05"]);
  });

  it("uses the tenant's threshold", () => {
    const request = makeRequest();
    const context = (autoApprovalThreshold: number) =>
      makeContext(request, {
        memberActivity: { requests: 15, providers: 0 },
        settings: { ...DEFAULT_SETTINGS, autoApprovalThreshold },
      });
    // held only above the threshold: a score of 0.5 is held at 0.49, not at 0.5
    assert.equal(run(request, context(0.49)).items[0]?.outcome, "PENDING_REVIEW");
    assert.equal(run(request, context(0.5)).items[0]?.outcome, "APPROVED");
  });

  it("lets an item held for review reserve its share of the limits", () => {
    // 7 units where peers have 1 (z 6): held; the category's 1,500.00 then leaves 100.00 for the next item
    const items = [
      makeItem({ unitAmount: 20_000, quantity: 7 }),
      makeItem({ serviceCode: "80061", unitAmount: 20_000 }),
    ];
    const request = makeRequest({ items });
    const coverage = makeCoverage({
      category: {
        limit: 150_000,
        utilized: 0,
        benefits: [
          {
            code: 1,
            limit: 5_000_000,
            utilized: 0,
            subBenefits: [{ code: 11, limit: 1_000_000, utilized: 0 }],
          },
        ],
      },
    });
    const decision = withPeers(makePeers({ medianUnitAmount: 20_000 }), request, { coverage });
    assert.deepEqual(
      decision.items.map((item) => [item.outcome, item.approvedAmount, item.heldAmount, item.rejectedAmount]),
      [
        ["PENDING_REVIEW", 0, 140_000, 0],
        ["PARTIALLY_APPROVED", 10_000, 0, 10_000],
      ],
    );
    assert.equal(
      decision.note,
      "2 items: 1 partially approved, 1 held for review; SAR 100.00 of 1,600.00 approved, 1,400.00 held for review",
    );
  });
});
