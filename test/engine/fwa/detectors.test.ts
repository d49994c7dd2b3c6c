import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../src/engine/fwa/analyze.js";
import { isoOfDay } from "../../../src/engine/fwa/days.js";
import { FWA_DETECTORS, STATISTICAL_DETECTORS } from "../../../src/engine/fwa/detectors.js";
import { averagePath, isolationScores } from "../../../src/engine/fwa/forest.js";
import {
  count,
  groupBy,
  madSorted,
  medianSorted,
  money,
  num,
  orderByDay,
  percent,
  quantileSorted,
  robustFit,
  scoreOf,
  seededRandom,
} from "../../../src/engine/fwa/robust.js";
import { RULE_DETECTORS } from "../../../src/engine/fwa/rules.js";
import { MEMBER_PROVIDERS, MEMBER_VISITS, memberPatterns } from "../../../src/engine/fwa/stats-members.js";
import { PROVIDER_PROFILE, providerProfiles } from "../../../src/engine/fwa/stats-providers.js";
import {
  PRICE_OUTLIER,
  priceOutliers,
  QUANTITY_OUTLIER,
  quantityOutliers,
} from "../../../src/engine/fwa/stats-service.js";
import { STAY_OUTLIER, stayOutliers } from "../../../src/engine/fwa/stats-stay.js";
import {
  SERVICE_FAMILIES,
  UPCODING_CODE,
  upcoding,
  upcodingDetector,
} from "../../../src/engine/fwa/stats-upcoding.js";
import {
  NEAR_DUPLICATE_CODE,
  nearDuplicates,
  SAME_DAY_SPLIT,
  sameDaySplits,
} from "../../../src/engine/fwa/stats-visits.js";
import type { ColumnarBatchView, Detector, Finding } from "../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../src/modules/claims-batch/claim.js";
import { claim, item, viewOf } from "./fixtures.js";

interface Run {
  view: ColumnarBatchView;
  /** findings by item index */
  items: Map<number, Finding[]>;
  /** entity scores by id text */
  providers: Map<string, number>;
  members: Map<string, number>;
}

function run(detector: Detector, claims: BatchClaimInput[]): Run {
  const view = viewOf(claims);
  const items = new Map<number, Finding[]>();
  const add = (i: number, finding: Finding) => items.set(i, [...(items.get(i) ?? []), finding]);
  const providers = new Map<string, number>();
  const members = new Map<string, number>();
  detector.run(view, {
    item: add,
    claim: (c, finding) => {
      for (let i = view.firstItem[c] as number; i < (view.firstItem[c + 1] as number); i += 1)
        add(i, finding);
    },
    entity: (kind, id, score) => {
      const scores = kind === "provider" ? providers : members;
      const text = view.strings[id] as string;
      scores.set(text, Math.max(scores.get(text) ?? 0, score));
    },
  });
  return { view, items, providers, members };
}

/** the claim ids whose items have findings of `code` */
function claimsWith(result: Run, code: string): string[] {
  const ids = new Set<string>();
  for (const [i, findings] of result.items) {
    if (findings.some((f) => f.code === code)) {
      ids.add(
        result.view.strings[result.view.claimId[result.view.itemClaim[i] as number] as number] as string,
      );
    }
  }
  return [...ids].sort();
}

const only = (result: Run): Finding[] => [...result.items.values()].flat();

/** every finding is a statistical flag: FLAG, source ai, FWA, a score in (0, 1] */
function isFlag(finding: Finding): void {
  assert.equal(finding.typeDecision, "FLAG");
  assert.equal(finding.source, "ai");
  assert.equal(finding.fwa, true);
  assert.ok(finding.score > 0 && finding.score <= 1, `score ${finding.score}`);
}

const day = (offset: number) => isoOfDay(Date.UTC(2026, 2, 1) / 86_400_000 + offset);

/** `n` plain claims of one service at `price`, members and providers varied */
const priced = (n: number, code: string, price: (k: number) => number, quantity = (_k: number) => 1) =>
  Array.from({ length: n }, (_, k) =>
    claim({
      claim_id: `C-${code}-${k}`,
      member_id: `M-${k}`,
      provider_id: `P-${k % 5}`,
      claim_date: day(k % 20),
      claim_items: [item({ service_code: code, claimed_amount: price(k), claimed_quantity: quantity(k) })],
    }),
  );

describe("fwa robust statistics", () => {
  it("medians, quantiles and MAD of sorted values, MAD in O(n) as the naive one", () => {
    const sorted = Float64Array.from([1, 2, 3, 4, 100]);
    assert.equal(medianSorted(sorted, 0, 5), 3);
    assert.equal(medianSorted(sorted, 0, 4), 2.5);
    assert.ok(Math.abs(quantileSorted(sorted, 0, 5, 0.9) - (4 + 0.6 * 96)) < 1e-9);
    assert.equal(madSorted(sorted, 0, 5, 3), 1);
    const random = seededRandom(42);
    for (let trial = 0; trial < 200; trial += 1) {
      const n = 1 + Math.floor(random() * 40);
      const values = Float64Array.from(
        { length: n },
        () => Math.floor(random() * 10) * (random() < 0.1 ? 50 : 1),
      );
      values.sort();
      const median = medianSorted(values, 0, n);
      const naive = values.map((v) => Math.abs(v - median)).sort();
      assert.equal(madSorted(values, 0, n, median), medianSorted(naive, 0, n), `${values}`);
    }
  });

  it("robust fits take the floor when values never vary, the upper spread only when asked", () => {
    const flat = new Float64Array(30).fill(5);
    assert.deepEqual(robustFit(flat, 0, 30, 0.1), { median: 5, scale: 0.1 });
    // 70% at 1, 30% spread above: MAD 0, upper spread (Q90 - 1) / 1.2816
    const skewed = Float64Array.from([...new Array(14).fill(1), 2, 3, 4, 5, 6, 7]).sort();
    assert.equal(robustFit(skewed, 0, 20, 1).scale, 1);
    assert.ok(
      Math.abs(robustFit(skewed, 0, 20, 1, true).scale - (quantileSorted(skewed, 0, 20, 0.9) - 1) / 1.2816) <
        1e-3,
    );
  });

  it("scores by a logistic curve, 0 below its minimum", () => {
    const curve = { min: 3, half: 4, width: 0.6 };
    assert.equal(scoreOf(2.99, curve), 0);
    assert.equal(scoreOf(Number.NaN, curve), 0);
    assert.equal(scoreOf(4, curve), 0.5);
    assert.ok(Math.abs(scoreOf(4 + 1.2, curve) - 0.8808) < 1e-4);
  });

  it("groups indexes by key, keeping a given order inside groups", () => {
    const keys = Int32Array.from([2, 0, 2, -1, 0, 2]);
    const { start, order } = groupBy(keys, 3);
    assert.deepEqual([...start], [0, 2, 2, 5]);
    assert.deepEqual([...order], [1, 4, 0, 2, 5]);
    const days = Int32Array.from([30, 10, 20, 5, 10, 1]);
    const byDay = orderByDay(days, -999);
    assert.deepEqual([...byDay], [5, 3, 1, 4, 2, 0]);
    assert.deepEqual([...groupBy(keys, 3, byDay).order], [1, 4, 5, 2, 0]);
  });

  it("formats counts, money, numbers and shares for causes", () => {
    assert.equal(count(1214), "1,214");
    assert.equal(count(1_000_000), "1,000,000");
    assert.equal(money(420_000), "4,200.00");
    assert.equal(money(34_000), "340.00");
    assert.equal(money(-150_050), "-1,500.50");
    assert.equal(num(2.5), "2.5");
    assert.equal(num(3), "3");
    assert.equal(num(12345.678, 1), "12,345.7");
    assert.equal(percent(0.823), "82%");
    assert.equal(percent(0.084), "8.4%");
  });
});

describe("fwa isolation forest", () => {
  it("isolates the odd row first and is deterministic", () => {
    const n = 300;
    const random = seededRandom(1);
    const rows = new Float64Array(n * 2);
    for (let k = 0; k < n; k += 1) {
      rows[2 * k] = random();
      rows[2 * k + 1] = random();
    }
    rows[2 * 17] = 6;
    rows[2 * 17 + 1] = 5;
    const options = { trees: 100, sampleSize: 128, seed: 9 };
    const scores = isolationScores(rows, n, 2, options);
    const best = scores.indexOf(Math.max(...scores));
    assert.equal(best, 17);
    assert.ok((scores[17] as number) > 0.7, `${scores[17]}`);
    const sorted = [...scores].sort((a, b) => a - b);
    assert.ok((sorted[n >> 1] as number) < 0.5);
    assert.deepEqual(isolationScores(rows, n, 2, options), scores);
    assert.equal(averagePath(1), 0);
    assert.equal(averagePath(2), 1);
    assert.deepEqual([...isolationScores(new Float64Array(0), 0, 2, options)], []);
  });
});

describe("fwa price and quantity outliers", () => {
  // 28 prices 337..343 around 340.00 for 83036
  const clean = () => priced(28, "83036", (k) => 337 + (k % 7));

  it("a clean group: no finding; a price 12 times the median: a finding with its figures", () => {
    assert.deepEqual(only(run(priceOutliers, clean())), []);
    const result = run(priceOutliers, [
      ...clean(),
      ...priced(1, "83036", () => 4200).map((c) => ({ ...c, claim_id: "C-X" })),
    ]);
    const findings = only(result);
    assert.equal(findings.length, 1);
    const finding = findings[0] as Finding;
    isFlag(finding);
    assert.equal(finding.code, PRICE_OUTLIER);
    assert.match(
      finding.cause,
      /^unit price 4,200\.00 is 12\.4 times the batch median 340\.00 for service 83036 over 29 items \(robust z \d+\.\d\)$/,
    );
    assert.ok(finding.score > 0.99);
    assert.deepEqual(claimsWith(result, PRICE_OUTLIER), ["C-X"]);
  });

  it("prices below the median, a tiny group, a code whose prices never vary", () => {
    const cheap = priced(1, "83036", () => 20);
    assert.deepEqual(only(run(priceOutliers, [...clean(), ...cheap])), []);
    // 19 items: too few to judge
    assert.deepEqual(
      only(
        run(
          priceOutliers,
          priced(19, "X1", (k) => (k === 0 ? 5000 : 100)),
        ),
      ),
      [],
    );
    // every price 100.00 (MAD 0): 105.00 is no outlier (the floor), 160.00 is (ratio 1.6, z 4.7)
    const fixed = (price: number) => priced(25, "FIX", (k) => (k === 0 ? price : 100));
    assert.deepEqual(only(run(priceOutliers, fixed(105))), []);
    const [finding] = only(run(priceOutliers, fixed(160)));
    assert.equal(
      finding?.cause,
      "unit price 160.00 is 1.6 times the batch median 100.00 for service FIX over 25 items (robust z 4.7)",
    );
    assert.ok((finding?.score as number) > 0.7 && (finding?.score as number) < 0.85);
  });

  it("quantities: mostly 1, a quantity of 12 stands out, 3 does not", () => {
    const quantities = (extra: number) =>
      priced(
        30,
        "85025",
        () => 35,
        (k) => (k === 0 ? extra : k % 10 === 1 ? 2 : 1),
      );
    assert.deepEqual(only(run(quantityOutliers, quantities(3))), []);
    const [finding, ...rest] = only(run(quantityOutliers, quantities(12)));
    assert.equal(rest.length, 0);
    isFlag(finding as Finding);
    assert.equal(finding?.code, QUANTITY_OUTLIER);
    assert.equal(
      finding?.cause,
      "quantity 12 is 12 times the batch median 1 for service 85025 over 30 items (robust z 6.7)",
    );
  });
});

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
    assert.deepEqual(only(run(stayOutliers, usual())), []);
    const result = run(stayOutliers, [...usual(), stay(99, 14)]);
    assert.deepEqual(claimsWith(result, STAY_OUTLIER), ["S-99"]);
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
      only(run(stayOutliers, [...even, stay(98, 4)])),
      [],
      "4 days: 1.3 times the upper quartile",
    );
    // 7 days, 2.3 times the upper quartile: a reason, too weak to flag alone (such stays are common in real claims)
    const result = run(stayOutliers, [...even, stay(99, 7)]);
    assert.deepEqual(claimsWith(result, STAY_OUTLIER), ["S-99"]);
    const finding = only(result)[0] as Finding;
    assert.ok((finding.score as number) > 0.2 && (finding.score as number) < 0.5, `score ${finding.score}`);
    assert.match(
      finding.cause as string,
      /3\.5 times, 2\.3 times the upper quartile of 3 days \(robust z 2\.\d\)$/,
    );
    // 9 days, 3 times the upper quartile: flagged alone
    const [longer] = only(run(stayOutliers, [...even, stay(99, 9)]));
    assert.ok((longer?.score as number) >= 0.5, `score ${longer?.score}`);
  });

  it("a rare diagnosis is compared with its category; missing, inverted and outpatient dates are left out", () => {
    const result = run(stayOutliers, [
      ...usual(),
      stay(50, 15, "J18.0"),
      stay(51, 40, "J18.9", { claim_sub_type: "OUT_PATIENT" }),
      stay(52, 30, "J18.9", { discharge_date: undefined }),
      stay(53, 30, "J18.9", { admission_date: day(5), discharge_date: day(2) }),
    ]);
    assert.deepEqual(claimsWith(result, STAY_OUTLIER), ["S-50"]);
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
    const result = run(stayOutliers, [...usual(), byItems]);
    assert.match(only(result)[0]?.cause as string, /^stay of 21 days \(2026-03-01 to 2026-03-22\)/);
    assert.deepEqual(only(run(stayOutliers, [...usual().slice(0, 10), stay(99, 30)])), []);
  });
});

describe("fwa near-duplicates and same-day splits", () => {
  /** 60 ordinary claims of two items, members M-0..M-59 */
  const background = () =>
    Array.from({ length: 60 }, (_, k) =>
      claim({
        claim_id: `B-${k}`,
        member_id: `M-${k}`,
        provider_id: `P-${k % 6}`,
        claim_date: day(k % 28),
        claim_items: [
          item({ service_code: "99213" }),
          item({ service_code: `LAB-${k % 10}`, claimed_amount: 40 }),
        ],
      }),
    );
  const visit = (id: string, provider: string, offset: number, extra: Partial<BatchClaimInput> = {}) =>
    claim({
      claim_id: id,
      member_id: "M-X",
      provider_id: provider,
      claim_date: day(offset),
      claim_items: [
        item({ service_code: "99213" }),
        item({ service_code: "70553", claimed_amount: 2500 }),
        item({ service_code: "74177", claimed_amount: 1500 }),
      ],
      ...extra,
    });

  it("the same services for one member at another provider two days later: both claims' items", () => {
    const result = run(nearDuplicates, [...background(), visit("A", "P-1", 3), visit("B", "P-9", 5)]);
    assert.deepEqual(claimsWith(result, NEAR_DUPLICATE_CODE), ["A", "B"]);
    const findings = only(result);
    assert.equal(findings.length, 6);
    for (const finding of findings) isFlag(finding);
    assert.ok(findings.every((f) => f.score > 0.95));
    const causes = findings.map((f) => f.cause);
    assert.ok(
      causes.includes(
        "service 70553 is also billed for this member by provider P-9 in claim B on 2026-03-06, 2 days apart; " +
          "3 of this claim's 3 services repeat there, same primary diagnosis E119",
      ),
    );
    assert.ok(
      causes.some((c) =>
        c.startsWith("service 70553 is also billed for this member by provider P-1 in claim A"),
      ),
    );
  });

  it("the same provider, a week apart, another member, or only a common service: nothing", () => {
    const none = (claims: BatchClaimInput[]) =>
      assert.deepEqual(only(run(nearDuplicates, [...background(), ...claims])), []);
    none([visit("A", "P-1", 3), visit("B", "P-1", 5)]);
    none([visit("A", "P-1", 3), visit("B", "P-9", 10)]);
    none([visit("A", "P-1", 3), visit("B", "P-9", 5, { member_id: "M-Y" })]);
    // an office visit billed on most claims, in claims otherwise different
    none([
      visit("A", "P-1", 3),
      visit("B", "P-9", 5, {
        primary_diagnosis_code: "J06.9",
        claim_items: [item({ service_code: "99213", claimed_amount: 180 }), item({ service_code: "LAB-1" })],
      }),
    ]);
  });

  const part = (id: string, codes: string[], extra: Partial<BatchClaimInput> = {}) =>
    claim({
      claim_id: id,
      member_id: "M-X",
      provider_id: "P-1",
      claim_date: day(4),
      claim_items: codes.map((code) => item({ service_code: code })),
      ...extra,
    });

  it("three claims of one member at one provider on one day: every item of every part", () => {
    const result = run(sameDaySplits, [
      ...background(),
      part("S1", ["99213"]),
      part("S2", ["80053"]),
      part("S3", ["85025"]),
    ]);
    assert.deepEqual(claimsWith(result, SAME_DAY_SPLIT), ["S1", "S2", "S3"]);
    const findings = only(result);
    assert.equal(new Set(findings).size, 1);
    isFlag(findings[0] as Finding);
    // 3 claims 0.55, same diagnosis 0.25, 3 items for a typical 2: 1 - 0.45 * 0.75 * 0.8
    assert.ok(Math.abs((findings[0]?.score as number) - 0.73) < 1e-9);
    assert.equal(
      findings[0]?.cause,
      "3 professional claims of this member at provider P-1 on 2026-03-05 (S1, S2, S3) with 3 items in all; " +
        "a typical claim of the batch has 2; same primary diagnosis E119",
    );
  });

  it("an exact resubmission, another claim type, another provider or day: no split", () => {
    const none = (claims: BatchClaimInput[]) =>
      assert.deepEqual(only(run(sameDaySplits, [...background(), ...claims])), []);
    none([part("S1", ["99213", "80053"]), part("S2", ["80053", "99213"])]);
    none([part("S1", ["99213"]), part("S2", ["80053"], { claim_type: "INSTITUTIONAL" })]);
    none([part("S1", ["99213"]), part("S2", ["80053"], { provider_id: "P-2" })]);
    none([part("S1", ["99213"]), part("S2", ["80053"], { claim_date: day(5) })]);
    // two parts with different diagnoses and many items: weak, below 0.5
    const [weak] = only(
      run(sameDaySplits, [
        ...background(),
        part("S1", ["A", "B", "C"]),
        part("S2", ["D", "E"], { primary_diagnosis_code: "I10" }),
      ]),
    );
    assert.ok((weak?.score as number) < 0.5);
  });
});

describe("fwa member patterns", () => {
  /** 80 members with 1-3 claims each at one or two providers */
  const population = () =>
    Array.from({ length: 80 }, (_, m) =>
      Array.from({ length: 1 + (m % 3) }, (_, k) =>
        claim({
          claim_id: `C-${m}-${k}`,
          member_id: `M-${m}`,
          provider_id: `P-${(m + (k === 2 ? 1 : 0)) % 10}`,
          claim_date: day(k * 5),
        }),
      ),
    ).flat();

  it("a clean population: nothing", () => {
    const result = run(memberPatterns, population());
    assert.deepEqual(only(result), []);
    assert.equal(result.members.size, 0);
  });

  it("a member seen by seven providers for one complaint: its claims, the complaint's strongest", () => {
    const shopper = Array.from({ length: 7 }, (_, k) =>
      claim({
        claim_id: `D-${k}`,
        member_id: "M-S",
        provider_id: `Q-${k}`,
        claim_date: day(k),
        primary_diagnosis_code: "J06.9",
      }),
    );
    const other = claim({
      claim_id: "D-other",
      member_id: "M-S",
      provider_id: "Q-0",
      primary_diagnosis_code: "I10",
    });
    const result = run(memberPatterns, [...population(), ...shopper, other]);
    // 7 providers in all also stands out (typical 1): the member's other claim gets that, weaker
    assert.deepEqual(
      claimsWith(result, MEMBER_PROVIDERS),
      [...shopper.map((c) => c.claim_id), "D-other"].sort(),
    );
    const at = (id: string) => {
      const c = result.view.strings.indexOf(id);
      const index = [...result.view.claimId].indexOf(c);
      return result.items.get(result.view.firstItem[index] as number)?.[0] as Finding;
    };
    const complaint = at("D-0");
    isFlag(complaint);
    assert.match(
      complaint.cause,
      /^member M-S: 7 providers billed this member for complaint J06 \(batch typical 1, robust z 6\); 7 providers for complaint J06 within 30 days from 2026-03-01 \(batch typical 1, robust z 6\); 7 providers in all \(typical 1, robust z 6\); 8 claims in the batch \(typical 2, robust z 4\) over 81 members$/,
    );
    assert.ok(complaint.score > 0.9);
    assert.ok(at("D-other").score < complaint.score);
    assert.equal(at("D-other").cause, complaint.cause);
    assert.equal(result.members.get("M-S"), complaint.score);
    assert.deepEqual([...result.members.keys()], ["M-S"]);
  });

  it("a member with 30 claims at one provider: every claim, as excessive visits", () => {
    const busy = Array.from({ length: 30 }, (_, k) =>
      claim({ claim_id: `V-${k}`, member_id: "M-B", provider_id: "P-1", claim_date: day(k) }),
    );
    const result = run(memberPatterns, [...population(), ...busy]);
    assert.deepEqual(claimsWith(result, MEMBER_VISITS).length, 30);
    assert.match(
      only(result)[0]?.cause as string,
      /^member M-B: 30 claims in the batch \(typical 2, robust z \d+/,
    );
    assert.ok((result.members.get("M-B") as number) > 0.99);
  });

  it("too few members to judge: nothing", () => {
    const few = Array.from({ length: 7 }, (_, k) =>
      claim({ claim_id: `D-${k}`, member_id: "M-S", provider_id: `Q-${k}`, primary_diagnosis_code: "J06.9" }),
    );
    assert.deepEqual(only(run(memberPatterns, [...population().slice(0, 40), ...few])), []);
  });
});

describe("fwa provider profiles", () => {
  /** 30 clinics of 20 claims each, alike but not identical; `odd` gets emergencies and longer claims */
  const clinics = (odd?: string) => {
    const claims: BatchClaimInput[] = [];
    for (let p = 0; p < 30; p += 1) {
      const provider = `P-${String(p).padStart(2, "0")}`;
      for (let k = 0; k < 20; k += 1) {
        const strange = provider === odd;
        const n = strange ? 7 : 2 + ((p + k) % 3);
        claims.push(
          claim({
            claim_id: `${provider}-${k}`,
            member_id: `M-${p}-${k % (8 + (p % 4))}`,
            provider_id: provider,
            claim_date: day(k),
            is_emergency: strange && k % 5 !== 0,
            primary_diagnosis_code: ["E11.9", "I10", "J06.9", "K21.9", "M54.5"][(k + p) % 5] as string,
            claim_items: Array.from({ length: n }, (_, i) =>
              item({
                service_code: `S-${i}`,
                claimed_amount: 100 * (1 + i) * (1 + ((p * 7 + k + i) % 5) / 100),
              }),
            ),
          }),
        );
      }
    }
    return claims;
  };

  it("alike providers: entity scores near 0 and no finding", () => {
    const result = run(providerProfiles, clinics());
    assert.equal(result.providers.size, 30);
    assert.ok(
      [...result.providers.values()].every((s) => s < 0.05),
      `${[...result.providers.values()]}`,
    );
    assert.deepEqual(only(result), []);
  });

  it("an odd provider: a high entity score, every item flagged, the standing-out features named", () => {
    const result = run(providerProfiles, clinics("P-07"));
    const scores = [...result.providers].sort((a, b) => b[1] - a[1]);
    assert.equal(scores[0]?.[0], "P-07");
    assert.ok((scores[0]?.[1] as number) > 0.9);
    assert.ok((scores[1]?.[1] as number) < 0.05);
    assert.equal(claimsWith(result, PROVIDER_PROFILE).length, 20);
    const findings = only(result);
    assert.equal(findings.length, 20 * 7);
    assert.equal(new Set(findings).size, 1);
    isFlag(findings[0] as Finding);
    const cause = findings[0]?.cause as string;
    assert.match(cause, /^provider P-07 stands out among the batch's 30 clinic providers: /);
    assert.match(cause, /emergency claims 80% \(typical 0%\), robust z \d+/);
    assert.match(cause, /items per claim 7 \(typical 3\), robust z \d+/);
    assert.match(cause, /high-cost items 51% \(typical 6\.7%\), robust z \d+/);
    assert.match(
      cause,
      /isolation forest anomaly 0\.\d+ \(batch typical 0\.\d+, robust z \d+(\.\d)?\); high-cost items are lines of 404\.80 or more$/,
    );
  });

  it("is deterministic and independent of the claims' order", () => {
    const claims = clinics("P-07");
    const once = run(providerProfiles, claims).providers;
    assert.deepEqual(run(providerProfiles, claims).providers, once);
    const reversed = run(providerProfiles, [...claims].reverse()).providers;
    for (const [id, score] of once) assert.ok(Math.abs((reversed.get(id) as number) - score) < 1e-9, id);
  });

  it("too few providers, or providers too small: nothing", () => {
    assert.equal(run(providerProfiles, clinics("P-07").slice(0, 9 * 20)).providers.size, 0);
    const small = clinics().filter((c) => Number(c.claim_id.split("-")[2]) < 9);
    assert.equal(run(providerProfiles, small).providers.size, 0);
  });
});

describe("fwa upcoding", () => {
  /** 12 clinics of 40 office visits with levels 11/12/13/14/15 in proportions 2/8/18/10/2 */
  const MIX = [
    "99211",
    "99211",
    ...new Array(8).fill("99212"),
    ...new Array(18).fill("99213"),
    ...new Array(10).fill("99214"),
    "99215",
    "99215",
  ];
  const visits = (upcoder?: string, code = (k: number) => MIX[k] as string) => {
    const claims: BatchClaimInput[] = [];
    for (let p = 0; p < 12; p += 1) {
      const provider = `P-${p}`;
      for (let k = 0; k < 40; k += 1) {
        const level =
          provider === upcoder
            ? k % 10 === 0
              ? "99213"
              : k % 2 === 0
                ? "99214"
                : "99215"
            : code((k + p) % 40);
        claims.push(
          claim({
            claim_id: `${provider}-${k}`,
            member_id: `M-${p}-${k}`,
            provider_id: provider,
            claim_items: [item({ service_code: level }), item({ service_code: "85025" })],
          }),
        );
      }
    }
    return claims;
  };

  it("peers alike: no finding, and every provider's standing near 0", () => {
    const result = run(upcoding, visits());
    assert.deepEqual(only(result), []);
    assert.equal(result.providers.size, 12);
    assert.ok([...result.providers.values()].every((s) => s < 0.01));
  });

  it("a provider billing the top levels 90% of the time: its top-level items and its score", () => {
    const result = run(upcoding, visits("P-3"));
    const flagged = [...result.items.keys()].map(
      (i) => result.view.strings[result.view.serviceCode[i] as number],
    );
    assert.equal(flagged.length, 36);
    assert.ok(flagged.every((code) => code === "99214" || code === "99215"));
    assert.deepEqual(
      claimsWith(result, UPCODING_CODE).every((id) => id.startsWith("P-3-")),
      true,
    );
    const [finding] = only(result);
    isFlag(finding as Finding);
    assert.match(
      finding?.cause as string,
      /^provider P-3 billed the top levels \(99214, 99215\) of office visits, established patient in 90% of its 40 such items \(outpatient\); the batch's providers: median 30% over 12 providers \(robust z \d+(\.\d)?\)$/,
    );
    assert.ok((result.providers.get("P-3") as number) > 0.99);
    for (const [id, score] of result.providers) if (id !== "P-3") assert.ok(score < 0.01, id);
  });

  it("through analyzeBatch: the provider's score in the decisions, its top-level items flagged", () => {
    const view = viewOf(visits("P-3"));
    const decisions = analyzeBatch(view, FWA_DETECTORS, { flagThreshold: 0.5 });
    const p3 = view.strings.indexOf("P-3");
    assert.ok((decisions.providerScore.get(p3) as number) > 0.99);
    for (const [id, score] of decisions.providerScore)
      if (id !== p3) assert.ok(score < 0.05, `${view.strings[id]}`);
    let flagged = 0;
    decisions.itemStatus.forEach((status, i) => {
      if (status !== "flagged") return;
      flagged += 1;
      assert.equal(view.strings[view.providerId[view.itemClaim[i] as number] as number], "P-3");
    });
    assert.equal(flagged, 36);
    assert.equal(decisions.summary.FWA_cases, 36);
  });

  it("families are data: a custom family, and too few items per provider", () => {
    const widgets = upcodingDetector([{ name: "widgets", levels: ["W1", "W2", "W3"], high: 1 }]);
    const claims = visits("P-3").map((c) => ({
      ...c,
      claim_items: c.claim_items.map((i) => {
        const widget = { "99215": "W3", "99214": "W2", "99213": "W1", "99212": "W1", "99211": "W1" }[
          i.service_code
        ];
        return { ...i, service_code: widget ?? i.service_code };
      }),
    }));
    const result = run(widgets, claims);
    assert.match(
      only(result)[0]?.cause as string,
      /^provider P-3 billed the top level \(W3\) of widgets in 50% of its 40/,
    );
    // 8 office visits per provider: too few to judge
    const few = run(
      upcoding,
      visits("P-3").filter((c) => Number(c.claim_id.split("-")[2]) < 8),
    );
    assert.deepEqual(only(few), []);
    assert.equal(few.providers.size, 0);
    assert.ok(SERVICE_FAMILIES.every((f) => f.high >= 1 && f.high < f.levels.length));
  });
});

describe("fwa detectors together", () => {
  it("export the rules then the statistics, each once", () => {
    assert.deepEqual(FWA_DETECTORS, [...RULE_DETECTORS, ...STATISTICAL_DETECTORS]);
    assert.equal(new Set(FWA_DETECTORS.map((d) => d.name)).size, FWA_DETECTORS.length);
    assert.equal(STATISTICAL_DETECTORS.length, 9);
    assert.ok(Object.isFrozen(STATISTICAL_DETECTORS) && Object.isFrozen(FWA_DETECTORS));
  });

  it("run on an empty batch and on a single claim without findings", () => {
    for (const claims of [[], [claim()]]) {
      const decisions = analyzeBatch(viewOf(claims), FWA_DETECTORS, { flagThreshold: 0.5 });
      assert.equal(decisions.itemFindings.size, 0);
      assert.equal(decisions.providerScore.size, 0);
    }
  });

  it("weak findings of two detectors add up on an item", () => {
    const stay = (k: number, days: number, price: number) =>
      claim({
        claim_id: `S-${k}`,
        member_id: `M-${k}`,
        provider_id: `H-${k % 4}`,
        claim_type: "INSTITUTIONAL",
        claim_sub_type: "IN_PATIENT",
        admission_date: day(0),
        discharge_date: day(days),
        claim_items: [item({ service_code: "ROOM", claimed_amount: price })],
      });
    // stays of 3-5 days; room prices 900 x exp(-0.2 .. 0.2): a robust scale of 0.15 in ln(price)
    const claims = Array.from({ length: 30 }, (_, k) =>
      stay(k, 3 + (k % 3), Math.round(900 * Math.exp(0.1 * ((k % 5) - 2)))),
    );
    // a stay of 12 days (z 3.6, 2.4 times the upper quartile: about 0.44) whose room price is 1.68 times the
    // median (z 3.5: about 0.3)
    claims.push(stay(99, 12, 1515));
    const view = viewOf(claims);
    const decisions = analyzeBatch(view, STATISTICAL_DETECTORS, { flagThreshold: 0.5 });
    const findings = decisions.itemFindings.get(30) ?? [];
    assert.deepEqual(findings.map((f) => f.code).sort(), [PRICE_OUTLIER, STAY_OUTLIER].sort());
    assert.ok(
      findings.every((f) => f.score < 0.5),
      findings.map((f) => f.score).join(),
    );
    const expected = 1 - findings.reduce((keep, f) => keep * (1 - f.score), 1);
    assert.ok(Math.abs((decisions.itemScore[30] as number) - expected) < 1e-6);
    assert.equal(decisions.itemStatus[30], "flagged");
  });
});
