import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { textOf } from "../../../../src/engine/fwa/columns/columnar.js";
import {
  periodMonths,
  providerFeatureTable,
  RICH_FEATURES,
} from "../../../../src/engine/fwa/stats/provider-features.js";
import { claim, item, viewOf } from "../fixtures.js";

const stay = (
  id: string,
  provider: string,
  member: string,
  from: string,
  to: string,
  amount: number,
  dx = "I21.0",
) =>
  claim({
    claim_id: id,
    claim_type: "INSTITUTIONAL",
    claim_sub_type: "IN_PATIENT",
    claim_date: from,
    admission_date: from,
    discharge_date: to,
    provider_id: provider,
    member_id: member,
    medical_provider_type: "HOSPITAL",
    primary_diagnosis_code: dx,
    claim_items: [item({ claimed_amount: amount, service_code: "3893" })],
  });

describe("rich provider features", () => {
  const claims = [
    // P-A: five stays of two members over three months, one of them 30 days long, one readmission
    stay("A1", "P-A", "M-1", "2009-01-01", "2009-01-05", 5000),
    stay("A2", "P-A", "M-1", "2009-01-20", "2009-01-25", 5000),
    stay("A3", "P-A", "M-2", "2009-02-01", "2009-03-03", 20000),
    stay("A4", "P-A", "M-2", "2009-03-10", "2009-03-14", 4000),
    stay("A5", "P-A", "M-3", "2009-03-10", "2009-03-14", 4000),
    // P-B: one stay of M-3 that overlaps its stay at P-A
    stay("B1", "P-B", "M-3", "2009-03-12", "2009-03-13", 3000),
  ];
  const view = viewOf(claims);
  const table = providerFeatureTable(view);
  const row = (provider: string) => {
    const r = table.rows[table.providers.findIndex((p) => textOf(view, p) === provider)] as number[];
    return (name: (typeof RICH_FEATURES)[number]) => r[RICH_FEATURES.indexOf(name)] as number;
  };
  const a = row("P-A");
  const b = row("P-B");

  it("has one row per provider with every feature, all finite", () => {
    assert.equal(table.rows.length, 2);
    for (const r of table.rows) {
      assert.equal(r.length, RICH_FEATURES.length);
      assert.ok(r.every(Number.isFinite));
    }
  });

  it("counts volume, members and repeat patients", () => {
    assert.equal(a("log_claims"), Math.log1p(5));
    assert.equal(a("log_members"), Math.log1p(3));
    assert.equal(a("claims_per_member"), 5 / 3);
    assert.equal(a("repeat_members"), 2 / 3);
    assert.equal(a("volume_share"), Math.log(5 / 3));
  });

  it("sees stays against the diagnosis peers, readmissions, overlaps and shared patients", () => {
    assert.equal(a("long_stay_share"), 1 / 5); // the 30-day stay, against a median of 4 days
    assert.equal(a("longest_stay"), 30);
    assert.equal(b("longest_stay"), 1);
    assert.ok(a("dx_stay_excess") > 0);
    assert.equal(a("readmit_30_share"), 2 / 5); // A2 after A1, A4 after A3
    assert.equal(a("overlap_share"), 1 / 5); // A5 with B1
    assert.equal(b("overlap_share"), 1);
    assert.equal(a("shared_member_share"), 1 / 3);
    assert.equal(a("log_neighbours"), Math.log(2));
    assert.equal(b("neighbour_volume"), Math.log1p(5));
  });

  it("follows activity through the batch's period", () => {
    assert.equal(a("active_months_share"), 1); // January to March, all three
    assert.equal(b("active_months_share"), 1 / 3);
    assert.equal(b("peak_month_share"), 1);
    assert.equal(a("trend"), 0); // two, one, two claims: no slope
    assert.ok(b("trend") > 0, "its only claim in the last month");
    assert.equal(a("same_day_max"), 2);
  });

  it("spans the months from the earliest claim date to the latest, the outlying 1 % left out", () => {
    assert.equal(periodMonths(view), 3);
    assert.equal(periodMonths(viewOf([])), 0);
    const month = (n: number, date: string) => stay(`C${n}`, "P-A", `M-${n}`, date, date, 100);
    const june = Array.from({ length: 100 }, (_, n) =>
      month(n, `2009-06-${String(1 + (n % 28)).padStart(2, "0")}`),
    );
    // one mis-dated claim of a year before does not make June's batch a year's
    assert.equal(periodMonths(viewOf([...june, month(100, "2008-06-15")])), 1);
    assert.equal(periodMonths(viewOf([...june, ...june.map((_, n) => month(200 + n, "2009-11-15"))])), 6);
  });
  it("orders each member's claims by admission, however many and in whatever order they came", () => {
    const day = (n: number) => new Date(Date.UTC(2009, 0, 1 + n)).toISOString().slice(0, 10);
    // one-day stays ten days apart, sent newest first and claimed on one day (the members' grouping orders
    // by claim date): each after the first is a readmission
    const stays = (member: string, count: number, providerOf: (n: number) => string) =>
      Array.from({ length: count }, (_, n) => ({
        ...stay(`${member}-${n}`, providerOf(n), member, day(10 * n), day(10 * n + 1), 1000),
        claim_date: "2010-06-30",
      })).reverse();
    const many = viewOf([
      ...stays("M-LONG", 40, (n) => (n % 2 === 0 ? "P-X" : "P-Y")),
      ...stays("M-SHORT", 10, () => "P-Z"),
    ]);
    const features = providerFeatureTable(many);
    const of = (provider: string, name: (typeof RICH_FEATURES)[number]) =>
      (features.rows[features.providers.findIndex((p) => textOf(many, p) === provider)] as number[])[
        RICH_FEATURES.indexOf(name)
      ];
    assert.equal(of("P-X", "readmit_30_share"), 19 / 20); // it holds the member's first stay
    assert.equal(of("P-Y", "readmit_30_share"), 1);
    assert.equal(of("P-Z", "readmit_30_share"), 9 / 10);
    for (const provider of ["P-X", "P-Y", "P-Z"]) assert.equal(of(provider, "overlap_share"), 0);
    assert.equal(of("P-X", "log_neighbours"), Math.log(2));
    assert.equal(of("P-Z", "log_neighbours"), 0);
  });
});
