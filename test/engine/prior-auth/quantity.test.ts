import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EngineRequest, HistoryItem, RequestItem } from "../../../src/engine/prior-auth/types.js";
import {
  codesOf,
  DEFAULT_SETTINGS,
  makeContext,
  makeHistoryItem,
  makeItem,
  makeLightweightContext,
  makeRequest,
  reasonOf,
  run,
} from "./fixtures.js";

const drug = (overrides: Partial<RequestItem>): RequestItem =>
  makeItem({
    serviceCode: "MET500",
    nphiesCode: "MET500",
    serviceDescription: "Metformin 500 mg tablet",
    serviceType: "PHARMACEUTICAL",
    nphiesType: "PHARMACEUTICAL",
    unitAmount: 500,
    ...overrides,
  });

const one = (item: RequestItem) => run(makeRequest({ items: [item] }));

describe("engine: quantity against the prescription", () => {
  it("rejects units beyond doses a day x days (NDC051)", () => {
    const decision = one(drug({ quantity: 30, frequency: "BID", duration: "7 days" }));
    const item = decision.items[0];
    assert.equal(item?.outcome, "PARTIALLY_APPROVED");
    assert.equal(item?.approvedQuantity, 14);
    assert.equal(item?.approvedDuration, "7");
    assert.deepEqual(
      [item?.requestAmount, item?.approvedAmount, item?.rejectedAmount],
      [15_000, 7_000, 8_000],
    );
    assert.deepEqual(reasonOf(decision, "MZ-QTY-01"), {
      code: "MZ-QTY-01",
      nphiesCode: "NDC051",
      message: "quantity 30 is more than 2 a day (BID) for 7 days = 14 units; 16 units rejected",
      source: "rules",
    });
  });

  it("rounds the allowance up and reads the duration's unit", () => {
    const everyOtherDay = one(drug({ quantity: 6, frequency: "QOD", duration: "10 d" })).items[0];
    assert.deepEqual([everyOtherDay?.approvedQuantity, everyOtherDay?.approvedDuration], [5, "10"]);
    const twoWeeks = one(drug({ quantity: 42, frequency: "TID", duration: "2 weeks" })).items[0];
    assert.deepEqual(
      [twoWeeks?.outcome, twoWeeks?.approvedQuantity, twoWeeks?.approvedDuration],
      ["APPROVED", 42, "14"],
    );
    const month = one(drug({ quantity: 30, frequency: "OD", duration: "1 month" })).items[0];
    assert.deepEqual([month?.outcome, month?.approvedDuration], ["APPROVED", "30"]);
    const plain = one(drug({ quantity: 28, frequency: "Q6H", duration: "7" })).items[0];
    assert.deepEqual([plain?.outcome, plain?.approvedDuration], ["APPROVED", "7"]);
  });

  it("does not judge a duration it cannot read", () => {
    const item = one(drug({ quantity: 300, frequency: "BID", duration: "as needed" })).items[0];
    assert.deepEqual(
      [item?.outcome, item?.approvedQuantity, item?.approvedDuration],
      ["APPROVED", 300, null],
    );
  });

  it("approves medication for at most 90 days (NDC056), recomputing the duration", () => {
    const decision = one(drug({ quantity: 240, frequency: "BID", duration: "120 days" }));
    const item = decision.items[0];
    assert.deepEqual(
      [item?.approvedQuantity, item?.approvedDuration, item?.rejectedAmount],
      [180, "90", 30_000],
    );
    assert.deepEqual(reasonOf(decision, "MZ-QTY-02"), {
      code: "MZ-QTY-02",
      nphiesCode: "NDC056",
      message:
        "duration 120 days is above the 90 days allowed for medication: 90 days' worth is 180 units (2 a day); 60 units rejected",
      source: "rules",
    });
    const noFrequency = one(drug({ quantity: 2, duration: "180" }));
    assert.equal(noFrequency.items[0]?.approvedQuantity, 1);
    assert.equal(
      reasonOf(noFrequency, "MZ-QTY-02").message,
      "duration 180 days is above the 90 days allowed for medication: 90 days' worth is 1 unit (2 over 180 days); 1 unit rejected",
    );
    const oneBox = one(drug({ quantity: 1, duration: "6 months" }));
    assert.deepEqual(
      [oneBox.items[0]?.outcome, oneBox.items[0]?.approvedQuantity, oneBox.items[0]?.approvedDuration],
      ["PARTIALLY_APPROVED", 1, "90"],
    );
    assert.equal(
      reasonOf(oneBox, "MZ-QTY-02").message,
      "duration 180 days is above the 90 days allowed for medication: approved for 90 days, quantity 1 unchanged",
    );
    // only medication
    const device = one(
      makeItem({ serviceType: "DEVICE", nphiesType: "DEVICE", quantity: 1, duration: "120 days" }),
    ).items[0];
    assert.deepEqual([device?.outcome, device?.approvedDuration], ["APPROVED", "120"]);
  });

  it("lists every rule that cuts, and approves the smallest allowance", () => {
    const decision = one(drug({ quantity: 300, frequency: "BID", duration: "120 days" }));
    assert.deepEqual(codesOf(decision), ["MZ-QTY-01", "MZ-QTY-02"]);
    assert.deepEqual([decision.items[0]?.approvedQuantity, decision.items[0]?.approvedDuration], [180, "90"]);
  });

  it("approves one consultation and two optical units per item (NDC048)", () => {
    const consultation = one(
      makeItem({
        serviceCode: "99213",
        serviceType: "CONSULTATION",
        nphiesType: "CONSULTATION",
        quantity: 2,
        unitAmount: 30_000,
      }),
    );
    assert.deepEqual(reasonOf(consultation, "MZ-QTY-03"), {
      code: "MZ-QTY-03",
      nphiesCode: "NDC048",
      message: "a consultation is one visit per item: quantity 2 cut to 1; 1 unit rejected",
      source: "rules",
    });
    assert.deepEqual(
      [consultation.items[0]?.approvedAmount, consultation.items[0]?.rejectedAmount],
      [30_000, 30_000],
    );
    const lenses = makeItem({
      serviceCode: "V2100",
      serviceType: "OPTICAL",
      nphiesType: "OPTICAL",
      quantity: 4,
    });
    const optical = run(
      makeRequest({ diagnoses: [{ type: "primary", code: "H5213", name: null }], items: [lenses] }),
    );
    assert.equal(optical.items[0]?.approvedQuantity, 2);
    assert.equal(
      reasonOf(optical, "MZ-QTY-04").message,
      "an optical item is at most a pair: quantity 4 cut to 2; 2 units rejected",
    );
  });

  it("reports a rejected item's duration as 0 days", () => {
    const request = makeRequest({
      items: [
        drug({ quantity: 14, frequency: "BID", duration: "7", serviceDescription: "Finasteride (prostate)" }),
      ],
    });
    const decision = run(
      request,
      makeContext(request, { member: { gender: "FEMALE", dateOfBirth: new Date("1980-01-01") } }),
    );
    assert.deepEqual([decision.items[0]?.outcome, decision.items[0]?.approvedDuration], ["REJECTED", "0"]);
  });
});

describe("engine: duplicates", () => {
  const withHistory = (
    history: HistoryItem[],
    request: EngineRequest = makeRequest(),
    settings = DEFAULT_SETTINGS,
  ) => run(request, makeContext(request, { history, settings }));
  const consultation = makeItem({
    serviceCode: "99213",
    nphiesCode: "99213",
    serviceType: "CONSULTATION",
    nphiesType: "CONSULTATION",
    unitAmount: 30_000,
  });

  it("rejects the later copies of a service in one request (NDC081)", () => {
    const request = makeRequest({
      items: [makeItem(), makeItem({ serviceCode: "80061" }), makeItem(), makeItem()],
    });
    const decision = run(request);
    assert.deepEqual(
      decision.items.map((item) => item.outcome),
      ["APPROVED", "APPROVED", "REJECTED", "REJECTED"],
    );
    assert.deepEqual(reasonOf(decision, "MZ-DUP-01", 2), {
      code: "MZ-DUP-01",
      nphiesCode: "NDC081",
      message: "service 83036 is already item 1 of this request",
      source: "rules",
    });
    assert.equal(
      reasonOf(decision, "MZ-DUP-01", 3).message,
      "service 83036 is already item 1 of this request",
    );
  });

  it("rejects a service approved within the duplicate window (NDC080)", () => {
    const decision = withHistory([makeHistoryItem()]);
    assert.equal(decision.items[0]?.outcome, "REJECTED");
    assert.deepEqual(reasonOf(decision, "MZ-DUP-02"), {
      code: "MZ-DUP-02",
      nphiesCode: "NDC080",
      message:
        "service 83036 was approved on 2025-02-28 (TX-OLD-1), 10 days before, within the 30-day window",
      source: "rules",
    });
  });

  it("does not count a claim's own prior authorization as its duplicate", () => {
    const preauth = makeHistoryItem({ authorization: { number: "AUTH-9", transactionType: "PREAUTH" } });
    const claim = (authorizationNumber: string) =>
      makeRequest({ transactionType: "CLAIM", authorizationNumber });
    assert.equal(withHistory([preauth], claim("AUTH-9")).items[0]?.outcome, "APPROVED");
    // another authorization's, an earlier claim of the same authorization, or a follow-up prior
    // authorization: duplicates as before
    assert.equal(withHistory([preauth], claim("AUTH-8")).items[0]?.outcome, "REJECTED");
    const billed = makeHistoryItem({ authorization: { number: "AUTH-9", transactionType: "CLAIM" } });
    assert.equal(withHistory([billed], claim("AUTH-9")).items[0]?.outcome, "REJECTED");
    const followUp = makeRequest({ transactionType: "PREAUTH", authorizationNumber: "AUTH-9" });
    assert.equal(withHistory([preauth], followUp).items[0]?.outcome, "REJECTED");
  });

  it("counts the window in days, the newest approved item, and nothing after the treatment date", () => {
    const at = (day: string, overrides: Partial<HistoryItem> = {}) =>
      makeHistoryItem({ date: new Date(`${day}T23:00:00.000Z`), ...overrides });
    assert.equal(withHistory([at("2025-02-08")]).items[0]?.outcome, "REJECTED"); // 30 days before
    assert.equal(withHistory([at("2025-02-07")]).items[0]?.outcome, "APPROVED"); // 31 days before
    assert.equal(withHistory([at("2025-03-10")]).items[0]?.outcome, "REJECTED"); // same day
    assert.equal(withHistory([at("2025-03-11")]).items[0]?.outcome, "APPROVED"); // after
    assert.equal(withHistory([at("2025-03-01", { approved: false })]).items[0]?.outcome, "APPROVED");
    assert.equal(withHistory([at("2025-03-01", { serviceCode: "80061" })]).items[0]?.outcome, "APPROVED");
    const newest = withHistory([
      at("2025-02-20", { reference: "TX-A" }),
      at("2025-03-05", { reference: "TX-B" }),
    ]);
    assert.match(reasonOf(newest, "MZ-DUP-02").message, /on 2025-03-05 \(TX-B\), 5 days before/);
    const shortWindow = withHistory([makeHistoryItem()], makeRequest(), {
      ...DEFAULT_SETTINGS,
      duplicateWindowDays: 7,
    });
    assert.equal(shortWindow.items[0]?.outcome, "APPROVED");
  });

  it("lets medication be refilled and leaves consultations to the follow-up rule", () => {
    const refill = makeItem({
      serviceCode: "MET500",
      serviceType: "PHARMACEUTICAL",
      nphiesType: "PHARMACEUTICAL",
    });
    const history = [
      makeHistoryItem({ serviceCode: "MET500" }),
      makeHistoryItem({ serviceCode: "99213", providerCchiNo: "PRV-2" }),
    ];
    const decision = withHistory(history, makeRequest({ items: [refill, consultation] }));
    assert.deepEqual(
      decision.items.map((item) => item.outcome),
      ["APPROVED", "APPROVED"],
    );
  });

  it("rejects a consultation with the same provider within the free follow-up period (NDC043)", () => {
    const visit = (days: string, overrides: Partial<HistoryItem> = {}) =>
      makeHistoryItem({
        date: new Date(`${days}T08:00:00.000Z`),
        serviceCode: "99214",
        serviceType: "CONSULTATION",
        reference: "TX-C1",
        ...overrides,
      });
    const request = makeRequest({ items: [consultation] });
    const decision = withHistory([visit("2025-03-05")], request);
    assert.deepEqual(reasonOf(decision, "MZ-DUP-03"), {
      code: "MZ-DUP-03",
      nphiesCode: "NDC043",
      message:
        "a consultation with provider PRV-1 was approved on 2025-03-05 (TX-C1), 5 days before, within the 14-day free follow-up period",
      source: "rules",
    });
    assert.equal(withHistory([visit("2025-02-24")], request).items[0]?.outcome, "REJECTED"); // 14 days
    assert.equal(withHistory([visit("2025-02-23")], request).items[0]?.outcome, "APPROVED"); // 15 days
    assert.equal(
      withHistory([visit("2025-03-05", { providerCchiNo: "PRV-2" })], request).items[0]?.outcome,
      "APPROVED",
    );
    assert.equal(
      withHistory([visit("2025-03-05", { approved: false })], request).items[0]?.outcome,
      "APPROVED",
    );
    assert.equal(
      withHistory([visit("2025-03-05", { serviceType: "AMBULATORY" })], request).items[0]?.outcome,
      "APPROVED",
    );
  });

  it("apply in lightweight mode too", () => {
    const request = makeRequest({ items: [makeItem(), makeItem()] });
    const decision = run(request, makeLightweightContext(request, { history: [makeHistoryItem()] }));
    assert.deepEqual(codesOf(decision, 0), ["MZ-DUP-02"]);
    assert.deepEqual(codesOf(decision, 1), ["MZ-DUP-01", "MZ-DUP-02"]);
  });
});
