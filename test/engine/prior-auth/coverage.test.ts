import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  codesOf,
  contractPrice,
  makeContext,
  makeCoverage,
  makeItem,
  makeLightweightContext,
  makeRequest,
  reasonOf,
  run,
} from "./fixtures.js";

const twoItems = () =>
  makeRequest({
    items: [
      makeItem(),
      makeItem({ serviceCode: "80061", nphiesCode: "80061", serviceDescription: "Lipid panel" }),
    ],
  });

describe("engine: the default request", () => {
  it("is approved in full", () => {
    const decision = run(makeRequest());
    assert.deepEqual(decision.requestAlerts, []);
    assert.equal(decision.note, "1 item: 1 approved; SAR 100.00 of 100.00 approved");
    assert.deepEqual(decision.items[0], {
      index: 0,
      outcome: "APPROVED",
      approved: true,
      approvedQuantity: 1,
      approvedDuration: null,
      unitPrice: 10_000,
      requestAmount: 10_000,
      approvedAmount: 10_000,
      priceRejectedAmount: 0,
      rejectedAmount: 0,
      heldAmount: 0,
      netPayable: 10_000,
      benefitCode: 1,
      subBenefitCode: 11,
      reasons: [],
      aiScore: 0,
      aiAlert: null,
    });
  });
});

describe("engine: eligibility (standard mode)", () => {
  const withCoverage = (coverage: Parameters<typeof makeCoverage>[0]) => {
    const request = twoItems();
    return run(request, makeContext(request, { coverage: makeCoverage(coverage) }));
  };

  it("rejects every item when the member has no link to the policy", () => {
    const decision = withCoverage({ link: undefined });
    for (const index of [0, 1]) {
      const item = decision.items[index];
      assert.equal(item?.outcome, "REJECTED");
      assert.equal(item?.approved, false);
      assert.equal(item?.rejectedAmount, 10_000);
      assert.equal(item?.approvedAmount, 0);
      assert.deepEqual(codesOf(decision, index), ["MZ-ELIG-01"]);
    }
    assert.equal(reasonOf(decision, "MZ-ELIG-01").nphiesCode, "NDC032");
    assert.equal(decision.note, "2 items: 2 rejected; SAR 0.00 of 200.00 approved");
  });

  it("rejects when the link or the policy is not active", () => {
    const link = { status: "SUSPENDED", startDate: "2025-01-01", endDate: "2025-12-31", categoryCode: "A" };
    const decision = withCoverage({
      link,
      policy: { status: "CANCELLED", startDate: "2025-01-01", endDate: "2025-12-31" },
    });
    assert.deepEqual(codesOf(decision), ["MZ-ELIG-02", "MZ-ELIG-03"]);
    assert.equal(
      reasonOf(decision, "MZ-ELIG-02").message,
      "the member's link to the policy is SUSPENDED, not ACTIVE",
    );
    assert.equal(reasonOf(decision, "MZ-ELIG-03").message, "the policy is CANCELLED, not ACTIVE");
    assert.equal(reasonOf(decision, "MZ-ELIG-03").nphiesCode, "NDC032");
  });

  it("rejects a treatment date after the end of coverage (NDC033) or before its start (NDC034)", () => {
    const ended = withCoverage({
      link: { status: "ACTIVE", startDate: "2024-03-01", endDate: "2025-02-28", categoryCode: "A" },
    });
    assert.deepEqual(reasonOf(ended, "MZ-ELIG-04"), {
      code: "MZ-ELIG-04",
      nphiesCode: "NDC033",
      message: "treatment date 2025-03-10 is after the member's link ended on 2025-02-28",
      source: "rules",
    });
    const early = withCoverage({
      policy: { status: "ACTIVE", startDate: "2025-04-01T00:00:00.000Z", endDate: "2026-03-31" },
    });
    assert.equal(reasonOf(early, "MZ-ELIG-05").nphiesCode, "NDC034");
    assert.equal(
      reasonOf(early, "MZ-ELIG-05").message,
      "treatment date 2025-03-10 is before the policy starts on 2025-04-01",
    );
    assert.equal(early.items[1]?.outcome, "REJECTED");
  });

  it("covers the first and the last day of coverage", () => {
    const lastDay = withCoverage({
      link: { status: "active", startDate: "2024-03-10", endDate: "2025-03-10", categoryCode: "A" },
    });
    assert.equal(lastDay.items[0]?.outcome, "APPROVED");
  });

  it("is skipped in lightweight mode", () => {
    const request = twoItems();
    const decision = run(request, makeLightweightContext(request));
    assert.deepEqual(
      decision.items.map((item) => item.outcome),
      ["APPROVED", "APPROVED"],
    );
  });
});

describe("engine: network (standard mode)", () => {
  const outOfNetwork = (overrides: Parameters<typeof makeRequest>[0] = {}) => {
    const request = makeRequest(overrides);
    return run(request, makeContext(request, { coverage: makeCoverage({ providerInNetwork: false }) }));
  };

  it("rejects a provider outside the member's network", () => {
    const decision = outOfNetwork();
    assert.equal(decision.items[0]?.outcome, "REJECTED");
    assert.deepEqual(reasonOf(decision, "MZ-NET-01"), {
      code: "MZ-NET-01",
      nphiesCode: "NDC035",
      message: "provider PRV-1 is not in the member's network",
      source: "rules",
    });
  });

  it("is skipped in an emergency, and says so", () => {
    for (const overrides of [{ isEmergency: true }, { claimSubType: "EMERGENCY" as const }]) {
      const decision = outOfNetwork(overrides);
      assert.equal(decision.items[0]?.outcome, "APPROVED");
      assert.deepEqual(decision.requestAlerts, [
        "network check skipped: emergency (provider PRV-1 is outside the member's network)",
      ]);
    }
    const inNetwork = run(makeRequest({ isEmergency: true }));
    assert.deepEqual(inNetwork.requestAlerts, ["network check skipped: emergency"]);
  });

  it("lets any provider in when the link names no network, and in lightweight mode", () => {
    const request = makeRequest();
    assert.equal(
      run(request, makeContext(request, { coverage: makeCoverage({ providerInNetwork: undefined }) }))
        .items[0]?.outcome,
      "APPROVED",
    );
    const light = run(request, makeLightweightContext(request));
    assert.equal(light.items[0]?.outcome, "APPROVED");
    assert.deepEqual(light.requestAlerts, []);
  });
});

describe("engine: benefits (standard mode)", () => {
  it("rejects a benefit outside the member's category and a sub-benefit outside the benefit", () => {
    const request = makeRequest({
      items: [
        makeItem({ benefitCode: 2, subBenefitCode: null }),
        makeItem({ serviceCode: "80061", subBenefitCode: 12 }),
        makeItem({ serviceCode: "85025" }),
      ],
    });
    const decision = run(request);
    assert.deepEqual(reasonOf(decision, "MZ-BEN-02", 0), {
      code: "MZ-BEN-02",
      nphiesCode: "NDC003",
      message: "benefit 2 of item 1 is not in category A",
      source: "rules",
    });
    assert.equal(
      reasonOf(decision, "MZ-BEN-03", 1).message,
      "sub-benefit 12 of item 2 is not under benefit 1 in category A",
    );
    assert.equal(reasonOf(decision, "MZ-BEN-03", 1).nphiesCode, "NDC003");
    assert.deepEqual(
      decision.items.map((item) => item.outcome),
      ["REJECTED", "REJECTED", "APPROVED"],
    );
  });

  it("rejects every item, naming the category, when the template lacks the member's category", () => {
    const request = twoItems();
    const decision = run(request, makeContext(request, { coverage: makeCoverage({ category: undefined }) }));
    for (const index of [0, 1]) {
      assert.equal(
        reasonOf(decision, "MZ-BEN-01", index).message,
        "category A of the member is not defined in the policy's template",
      );
    }
  });

  it("accepts an item without a benefit, and rejects a sub-benefit without one", () => {
    const request = makeRequest({
      items: [
        makeItem({ benefitCode: null, subBenefitCode: null }),
        makeItem({ serviceCode: "80061", benefitCode: null, subBenefitCode: 11 }),
      ],
    });
    const decision = run(request);
    assert.equal(decision.items[0]?.outcome, "APPROVED");
    assert.equal(reasonOf(decision, "MZ-BEN-03", 1).message, "item 2 names sub-benefit 11 but no benefit");
  });

  it("is skipped in lightweight mode", () => {
    const request = makeRequest({ items: [makeItem({ benefitCode: 99, subBenefitCode: 999 })] });
    assert.equal(run(request, makeLightweightContext(request)).items[0]?.outcome, "APPROVED");
  });
});

describe("engine: pricing", () => {
  it("approves at the lower contract price; the difference on the approved units is price-rejected", () => {
    const request = makeRequest({ items: [makeItem({ quantity: 3, unitAmount: 42_000 })] });
    const decision = run(request, makeContext(request, { prices: [contractPrice(30_000)] }));
    const item = decision.items[0];
    assert.equal(item?.outcome, "PARTIALLY_APPROVED");
    assert.equal(item?.approved, true);
    assert.equal(item?.approvedQuantity, 3);
    assert.equal(item?.unitPrice, 30_000);
    assert.equal(item?.requestAmount, 126_000);
    assert.equal(item?.approvedAmount, 90_000);
    assert.equal(item?.priceRejectedAmount, 36_000);
    assert.equal(item?.rejectedAmount, 0);
    assert.equal(item?.netPayable, 90_000);
    assert.deepEqual(reasonOf(decision, "MZ-PRICE-01"), {
      code: "MZ-PRICE-01",
      nphiesCode: "NDC079",
      message:
        "unit price 420.00 is above the contract price 300.00 (price list PL-1, item PI-1): 120.00 x 3 units = 360.00 not payable",
      source: "rules",
    });
    assert.equal(decision.note, "1 item: 1 partially approved; SAR 900.00 of 1,260.00 approved");
  });

  it("pays the claimed amount when it is at or below the contract price", () => {
    const request = makeRequest({ items: [makeItem({ unitAmount: 9_000 })] });
    const item = run(request, makeContext(request, { prices: [contractPrice(10_000)] })).items[0];
    assert.equal(item?.outcome, "APPROVED");
    assert.equal(item?.unitPrice, 9_000);
    assert.equal(item?.approvedAmount, 9_000);
  });

  it("cuts the quantity first, then the price of the approved units", () => {
    const consultation = makeItem({
      serviceCode: "99213",
      serviceType: "CONSULTATION",
      nphiesType: "CONSULTATION",
      quantity: 3,
      unitAmount: 30_000,
    });
    const request = makeRequest({ items: [consultation] });
    const decision = run(request, makeContext(request, { prices: [contractPrice(25_000)] }));
    const item = decision.items[0];
    assert.equal(item?.approvedQuantity, 1);
    assert.equal(item?.approvedAmount, 25_000);
    assert.equal(item?.priceRejectedAmount, 5_000);
    assert.equal(item?.rejectedAmount, 60_000);
    assert.deepEqual(codesOf(decision), ["MZ-QTY-03", "MZ-PRICE-01"]);
    assert.match(reasonOf(decision, "MZ-PRICE-01").message, /50\.00 x 1 unit = 50\.00 not payable$/);
  });

  it("rejects a service without a contract price in standard mode (NDC038)", () => {
    const request = twoItems();
    const decision = run(request, makeContext(request, { prices: [contractPrice(10_000), undefined] }));
    assert.equal(decision.items[0]?.outcome, "APPROVED");
    assert.equal(decision.items[1]?.outcome, "REJECTED");
    assert.deepEqual(reasonOf(decision, "MZ-PRICE-02", 1), {
      code: "MZ-PRICE-02",
      nphiesCode: "NDC038",
      message: "no contract price for service 80061 at provider PRV-1 on 2025-03-10",
      source: "rules",
    });
  });

  it("in lightweight mode applies the prices that exist and rejects nothing for lack of one", () => {
    const request = twoItems();
    const decision = run(
      request,
      makeLightweightContext(request, { prices: [contractPrice(8_000), undefined] }),
    );
    assert.equal(decision.items[0]?.outcome, "PARTIALLY_APPROVED");
    assert.equal(decision.items[0]?.approvedAmount, 8_000);
    assert.equal(decision.items[0]?.priceRejectedAmount, 2_000);
    assert.equal(decision.items[1]?.outcome, "APPROVED");
    assert.equal(decision.items[1]?.approvedAmount, 10_000);
  });
});

describe("engine: limits (standard mode)", () => {
  const limited = (subUtilized: number, items = [makeItem({ unitAmount: 20_000 })], subLimit = 100_000) => {
    const request = makeRequest({ items });
    const coverage = makeCoverage({
      category: {
        limit: 10_000_000,
        utilized: 0,
        benefits: [
          {
            code: 1,
            limit: 5_000_000,
            utilized: 0,
            subBenefits: [{ code: 11, limit: subLimit, utilized: subUtilized }],
          },
        ],
      },
    });
    return run(request, makeContext(request, { coverage }));
  };

  it("approves what is left of the tightest limit and rejects the rest (NDC017)", () => {
    const decision = limited(85_000);
    const item = decision.items[0];
    assert.equal(item?.outcome, "PARTIALLY_APPROVED");
    assert.equal(item?.approvedQuantity, 1);
    assert.equal(item?.approvedAmount, 15_000);
    assert.equal(item?.rejectedAmount, 5_000);
    assert.equal(item?.netPayable, 15_000);
    assert.deepEqual(reasonOf(decision, "MZ-LIM-02"), {
      code: "MZ-LIM-02",
      nphiesCode: "NDC017",
      message:
        "sub-benefit 11 of benefit 1: 150.00 left of the limit 1,000.00 (850.00 used); 150.00 of 200.00 approved, 50.00 rejected",
      source: "rules",
    });
  });

  it("rejects an item when the limit is used up (NDC036)", () => {
    const decision = limited(100_000);
    assert.equal(decision.items[0]?.outcome, "REJECTED");
    assert.equal(decision.items[0]?.rejectedAmount, 20_000);
    assert.deepEqual(reasonOf(decision, "MZ-LIM-01"), {
      code: "MZ-LIM-01",
      nphiesCode: "NDC036",
      message: "sub-benefit 11 of benefit 1: limit 1,000.00 is used up (1,000.00 used)",
      source: "rules",
    });
  });

  it("counts the earlier items of the same request", () => {
    const items = [
      makeItem({ unitAmount: 20_000 }),
      makeItem({ serviceCode: "80061", unitAmount: 20_000 }),
      makeItem({ serviceCode: "85025", unitAmount: 20_000 }),
    ];
    const decision = limited(0, items, 30_000);
    assert.deepEqual(
      decision.items.map((item) => [item.outcome, item.approvedAmount, item.rejectedAmount]),
      [
        ["APPROVED", 20_000, 0],
        ["PARTIALLY_APPROVED", 10_000, 10_000],
        ["REJECTED", 0, 20_000],
      ],
    );
    assert.equal(
      reasonOf(decision, "MZ-LIM-02", 1).message,
      "sub-benefit 11 of benefit 1: 100.00 left of the limit 300.00 (200.00 used, 200.00 of it by earlier items of this request); 100.00 of 200.00 approved, 100.00 rejected",
    );
    assert.equal(
      reasonOf(decision, "MZ-LIM-01", 2).message,
      "sub-benefit 11 of benefit 1: limit 300.00 is used up (300.00 used, 300.00 of it by earlier items of this request)",
    );
  });

  it("lets rejected items use nothing, and applies the limit to the contract amount", () => {
    const items = [
      makeItem({ serviceDescription: "Hysterectomy", unitAmount: 20_000 }),
      makeItem({ serviceCode: "80061", unitAmount: 25_000 }),
    ];
    const request = makeRequest({ items });
    const coverage = makeCoverage({
      category: {
        limit: 20_000,
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
    const decision = run(
      request,
      makeContext(request, { coverage, prices: [contractPrice(20_000), contractPrice(22_000, 1)] }),
    );
    assert.deepEqual(codesOf(decision, 0), ["MZ-CLIN-06"]);
    const item = decision.items[1];
    assert.equal(item?.approvedAmount, 20_000);
    assert.equal(item?.priceRejectedAmount, 3_000);
    assert.equal(item?.rejectedAmount, 2_000);
    assert.deepEqual(codesOf(decision, 1), ["MZ-PRICE-01", "MZ-LIM-02"]);
    assert.match(
      reasonOf(decision, "MZ-LIM-02", 1).message,
      /^category A: 200\.00 left of the limit 200\.00 \(0\.00 used\)/,
    );
  });

  it("lists an exhausted limit among the reasons of an item rejected for another reason", () => {
    const decision = limited(100_000, [makeItem({ unitAmount: 20_000, serviceDescription: "Hysterectomy" })]);
    assert.deepEqual(codesOf(decision), ["MZ-CLIN-06", "MZ-LIM-01"]);
  });

  it("is skipped in lightweight mode", () => {
    const request = makeRequest({ items: [makeItem({ unitAmount: 20_000_000 })] });
    assert.equal(run(request, makeLightweightContext(request)).items[0]?.outcome, "APPROVED");
  });
});
