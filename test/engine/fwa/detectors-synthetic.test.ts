/**
 * The statistical detectors on a synthetic batch of this test's own making (it knows nothing of the
 * project's generator): a seeded population of providers (clinics, hospitals, pharmacies, laboratories,
 * radiology centres, with log-normal volumes), members with a few visits each, mostly to a home clinic, a
 * service catalogue with list prices that vary a little per provider and log-normal noise per item,
 * quantities mostly 1, E/M levels in realistic proportions, inpatient stays by diagnosis. The clean batch
 * measures the false-positive rate; the same population with planted anomalies of each kind measures recall,
 * and the provider score's ROC-AUC over anomalous against normal providers. Times are printed, not asserted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../src/engine/fwa/analyze.js";
import { isoOfDay } from "../../../src/engine/fwa/columns/days.js";
import { rocAuc } from "../../../src/engine/fwa/model/quality.js";
import { FWA_DETECTORS, STATISTICAL_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { seededRandom } from "../../../src/engine/fwa/stats/random.js";
import type { BatchDecisions, ColumnarBatchView } from "../../../src/engine/fwa/types.js";
import type { BatchClaimInput, BatchClaimItemInput } from "../../../src/modules/claims-batch/claim.js";
import { viewOf } from "./fixtures.js";

// ---------------------------------------------------------------------------------------------------------
// the generator

/** draws over mulberry32 */
function rng(seed: number) {
  const next = seededRandom(seed);
  const normal = (): number => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const weighted = (weights: readonly number[]): number => {
    let total = 0;
    for (const w of weights) total += w;
    let r = next() * total;
    for (let k = 0; k < weights.length; k += 1) {
      r -= weights[k] as number;
      if (r < 0) return k;
    }
    return weights.length - 1;
  };
  const poisson = (mean: number): number => {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = next();
    while (p > limit) {
      k += 1;
      p *= next();
    }
    return k;
  };
  return { next, normal, int, pick, weighted, poisson };
}
type Rng = ReturnType<typeof rng>;

interface Service {
  code: string;
  price: number;
  /** quantity drawn for an item */
  quantity?: (r: Rng) => number;
}

const family = (codes: string[], prices: number[], weights: number[]) => ({ codes, prices, weights });
const OFFICE = family(
  ["99211", "99212", "99213", "99214", "99215"],
  [45, 80, 120, 175, 240],
  [5, 20, 45, 25, 5],
);
const OFFICE_NEW = family(["99202", "99203", "99204", "99205"], [100, 150, 220, 300], [20, 45, 28, 7]);
const ED = family(
  ["99281", "99282", "99283", "99284", "99285"],
  [90, 150, 250, 400, 600],
  [5, 15, 35, 30, 15],
);
const ADMIT = family(["99221", "99222", "99223"], [220, 320, 450], [25, 45, 30]);
const ROUND = family(["99231", "99232", "99233"], [90, 140, 200], [30, 50, 20]);

const numbered = (prefix: string, n: number, low: number, high: number, seed: number): Service[] => {
  const r = rng(seed);
  return Array.from({ length: n }, (_, k) => ({
    code: `${prefix}${String(k + 1).padStart(3, "0")}`,
    price: Math.round(low * (high / low) ** r.next() * 100) / 100,
  }));
};
const LABS: Service[] = [
  { code: "80053", price: 60 },
  { code: "83036", price: 55 },
  { code: "85025", price: 35 },
  { code: "80061", price: 70 },
  { code: "84443", price: 65 },
  { code: "81001", price: 20 },
  { code: "87086", price: 45 },
  { code: "82947", price: 15 },
  ...numbered("L", 22, 20, 300, 11),
];
const IMAGING: Service[] = [
  { code: "71045", price: 150 },
  { code: "74177", price: 1500 },
  { code: "70553", price: 2500 },
  { code: "76700", price: 400 },
  { code: "93000", price: 80 },
  { code: "72148", price: 2200 },
];
const PROCEDURES: Service[] = numbered("PR", 25, 150, 4000, 12);
const DRUGS: Service[] = numbered("D", 60, 10, 600, 13).map((s) => ({
  ...s,
  quantity: (r: Rng) => [1, 1, 1, 1, 1, 1, 1, 2, 2, 3][r.int(10)] as number,
}));
const SUPPLIES: Service[] = numbered("SUP", 15, 5, 200, 14).map((s) => ({
  ...s,
  quantity: (r: Rng) => 1 + r.poisson(0.6),
}));
const ROOM: Service = { code: "ROOM", price: 900 };

const CHRONIC = ["E11.9", "I10", "E78.5", "J45.909", "I48.91", "N18.3", "E03.9", "M17.11", "J44.1", "E66.9"];
const ACUTE = [
  "J06.9",
  "J02.9",
  "J20.9",
  "A09",
  "B34.9",
  "H10.9",
  "H66.90",
  "R51",
  "M54.5",
  "K21.9",
  "R10.9",
  "R07.9",
  "J30.9",
  "L20.9",
  "K59.00",
  "R50.9",
  "M79.1",
  "F41.9",
  "G43.909",
  "L03.115",
  "S52.501A",
  "S93.401A",
];
/** inpatient diagnoses and their median stay in days */
const INPATIENT: [string, number][] = [
  ["J18.9", 4],
  ["K35.80", 2],
  ["I21.9", 5],
  ["I50.9", 6],
  ["K80.20", 3],
  ["N20.0", 2],
  ["J44.1", 5],
  ["D64.9", 3],
  ["L03.115", 4],
  ["S52.501A", 2],
  ["A09", 2],
  ["T78.40XA", 1],
];

const TYPES = ["CLINIC", "HOSPITAL", "PHARMACY", "LABORATORY", "RADIOLOGY"] as const;
const DAY0 = Date.UTC(2026, 0, 1) / 86_400_000;
const PERIOD = 180;

interface Synthetic {
  claims: BatchClaimInput[];
  /** per claim: the anomaly planted in it, if any */
  labels: (string | undefined)[];
  /** provider id -> anomaly kind, for planted provider-level anomalies */
  anomalousProviders: Map<string, string>;
  providers: string[];
}

interface SyntheticOptions {
  claims: number;
  seed: number;
  inject: boolean;
  /** share of visits at the member's home clinic (0.55) */
  loyalty?: number;
  /** sd of ln(price) per item (0.12) and per provider and service (0.08) */
  priceNoise?: number;
  providerNoise?: number;
  /** mean visits per member (3.2) */
  visits?: number;
}

interface Provider {
  id: string;
  type: (typeof TYPES)[number];
  weight: number;
  /** ln price factor per service, a little per provider */
  factor: Map<string, number>;
  kind?: string;
}

function synthesize(options: SyntheticOptions): Synthetic {
  const r = rng(options.seed);
  const providerCount = Math.max(40, Math.round(options.claims / 60));
  const typeShare = [0.7, 0.12, 0.08, 0.06, 0.04];
  const providers: Provider[] = [];
  for (let p = 0; p < providerCount; p += 1) {
    const type = TYPES[r.weighted(typeShare)] as Provider["type"];
    const weight = Math.exp(0.8 * r.normal()) * (type === "HOSPITAL" ? 4 : 1);
    providers.push({ id: `PRV-${1000 + p}`, type, weight, factor: new Map() });
  }
  const byType = (type: Provider["type"]) => providers.filter((p) => p.type === type);
  const anomalousProviders = new Map<string, string>();
  if (options.inject) {
    const clinics = byType("CLINIC").filter((p) => p.weight > 0.6);
    const mark = (p: Provider, kind: string) => {
      p.kind = kind;
      anomalousProviders.set(p.id, kind);
    };
    const count = Math.max(3, Math.round(providerCount * 0.015));
    for (let k = 0; k < count; k += 1) mark(clinics[k] as Provider, "upcoding-provider");
    for (let k = count; k < count + 2; k += 1) {
      const p = clinics[k] as Provider;
      p.weight *= 5;
      mark(p, "volume-mix-provider");
    }
    for (let k = count + 2; k < count + 4; k += 1) mark(clinics[k] as Provider, "markup-provider");
  }
  const weightsOf = (list: Provider[]) => list.map((p) => p.weight);
  const clinics = byType("CLINIC");
  const clinicWeights = weightsOf(clinics);
  const hospitals = byType("HOSPITAL");
  const hospitalWeights = weightsOf(hospitals);
  const others = {
    PHARMACY: byType("PHARMACY"),
    LABORATORY: byType("LABORATORY"),
    RADIOLOGY: byType("RADIOLOGY"),
  };

  const priceOf = (provider: Provider, code: string, list: number): number => {
    let f = provider.factor.get(code);
    if (f === undefined) {
      f = (options.providerNoise ?? 0.08) * r.normal();
      provider.factor.set(code, f);
    }
    const markup = provider.kind === "markup-provider" ? Math.log(1.8) : 0;
    const noise = (options.priceNoise ?? 0.12) * r.normal();
    return Math.max(1, Math.round(list * Math.exp(f + markup + noise) * 100) / 100);
  };
  const item = (provider: Provider, service: Service, quantity?: number): BatchClaimItemInput => ({
    claimed_quantity: quantity ?? service.quantity?.(r) ?? 1,
    claimed_amount: priceOf(provider, service.code, service.price),
    service_code: service.code,
    service_description: service.code,
  });
  const level = (provider: Provider, f: ReturnType<typeof family>): Service => {
    const upcoding = provider.kind === "upcoding-provider" && f === OFFICE;
    const weights = upcoding ? [0, 4, 14, 47, 35] : f.weights;
    const k = r.weighted(weights);
    return { code: f.codes[k] as string, price: f.prices[k] as number };
  };
  const some = (list: Service[], n: number): Service[] => {
    const out = new Set<Service>();
    while (out.size < Math.min(n, list.length)) out.add(r.pick(list));
    return [...out];
  };

  const claims: BatchClaimInput[] = [];
  const labels: (string | undefined)[] = [];
  let nextMember = 0;
  const memberCount = Math.round(options.claims / (options.visits ?? 3.2));
  interface Member {
    id: string;
    dob: string;
    gender: "MALE" | "FEMALE";
    chronic: string;
    home: Provider;
  }
  const members: Member[] = [];
  for (let m = 0; m < memberCount; m += 1) {
    members.push({
      id: `MBR-${100000 + nextMember++}`,
      dob: `${1950 + r.int(60)}-0${1 + r.int(9)}-1${r.int(9)}T00:00:00.000Z`,
      gender: r.next() < 0.5 ? "MALE" : "FEMALE",
      chronic: r.pick(CHRONIC),
      home: clinics[r.weighted(clinicWeights)] as Provider,
    });
  }

  /** one visit's claim */
  const visit = (member: Member, day: number, provider: Provider, diagnosis?: string): BatchClaimInput => {
    const dx = diagnosis ?? (r.next() < 0.55 ? member.chronic : r.pick(ACUTE));
    const items: BatchClaimItemInput[] = [];
    let subType: BatchClaimInput["claim_sub_type"] = "OUT_PATIENT";
    let claimType: BatchClaimInput["claim_type"] = "PROFESSIONAL";
    let emergency = false;
    let primary = dx;
    let stay: [number, number] | undefined;
    const mixed = provider.kind === "volume-mix-provider";
    if (provider.type === "CLINIC") {
      items.push(item(provider, level(provider, r.next() < 0.15 ? OFFICE_NEW : OFFICE)));
      for (const s of some(LABS, r.poisson(1.3))) items.push(item(provider, s));
      for (const s of some(DRUGS, r.poisson(0.9))) items.push(item(provider, s));
      if (r.next() < 0.15) items.push(item(provider, r.pick(PROCEDURES.slice(0, 10))));
      if (mixed) {
        emergency = r.next() < 0.6;
        for (const s of some(PROCEDURES.slice(10), 2 + r.int(3))) items.push(item(provider, s));
        for (const s of some(IMAGING, 1)) items.push(item(provider, s));
      }
    } else if (provider.type === "HOSPITAL") {
      claimType = "INSTITUTIONAL";
      const u = r.next();
      if (u < 0.2) {
        subType = "IN_PATIENT";
        const [code, median] = INPATIENT[r.int(INPATIENT.length)] as [string, number];
        primary = code;
        const los = Math.max(0, Math.round(median * Math.exp(0.3 * r.normal())));
        stay = [day, day + los];
        items.push(item(provider, level(provider, ADMIT)));
        if (los > 1) items.push(item(provider, level(provider, ROUND), los - 1));
        items.push(item(provider, ROOM, Math.max(1, los)));
        for (const s of some(LABS, 1 + r.poisson(1.5))) items.push(item(provider, s));
        for (const s of some(DRUGS, r.poisson(1.5))) items.push(item(provider, s));
        if (r.next() < 0.4) items.push(item(provider, r.pick(PROCEDURES)));
      } else if (u < 0.5) {
        subType = "EMERGENCY";
        emergency = true;
        items.push(item(provider, level(provider, ED)));
        for (const s of some(LABS, r.poisson(1.5))) items.push(item(provider, s));
        if (r.next() < 0.4) items.push(item(provider, r.pick(IMAGING)));
        for (const s of some(SUPPLIES, r.poisson(0.8))) items.push(item(provider, s));
      } else {
        items.push(item(provider, level(provider, OFFICE)));
        for (const s of some(LABS, r.poisson(1.5))) items.push(item(provider, s));
        if (r.next() < 0.3) items.push(item(provider, r.pick(IMAGING)));
        if (r.next() < 0.2) items.push(item(provider, r.pick(PROCEDURES)));
      }
    } else if (provider.type === "PHARMACY") {
      for (const s of some(DRUGS, 1 + r.poisson(1.5))) items.push(item(provider, s));
    } else if (provider.type === "LABORATORY") {
      for (const s of some(LABS, 2 + r.poisson(2))) items.push(item(provider, s));
    } else {
      for (const s of some(IMAGING, 1 + r.poisson(0.3))) items.push(item(provider, s));
    }
    const claim: BatchClaimInput = {
      claim_id: "",
      claim_type: claimType,
      claim_sub_type: subType,
      claim_date: isoOfDay(day),
      primary_diagnosis_code: primary,
      primary_diagnosis_description: "diagnosis",
      member_id: member.id,
      member_dob: member.dob,
      member_gender: member.gender,
      provider_id: provider.id,
      medical_provider_type: provider.type,
      ph_id: `PH-${member.id.length % 7}`,
      insurance_start_date: "2025-01-01",
      claim_items: items,
    };
    if (emergency) claim.is_emergency = true;
    if (stay !== undefined) {
      claim.admission_date = isoOfDay(stay[0]);
      claim.discharge_date = isoOfDay(stay[1]);
    }
    return claim;
  };
  const push = (claim: BatchClaimInput, label?: string) => {
    claim.claim_id = `CLM-${claims.length}`;
    claims.push(claim);
    labels.push(label);
  };
  const choose = (member: Member): Provider => {
    const loyalty = options.loyalty ?? 0.55;
    const u = r.next();
    if (u < loyalty) return member.home;
    if (u < loyalty + (1 - loyalty) * 0.45) return clinics[r.weighted(clinicWeights)] as Provider;
    if (u < 0.9) return hospitals[r.weighted(hospitalWeights)] as Provider;
    const list = [others.PHARMACY, others.LABORATORY, others.RADIOLOGY][r.int(3)] as Provider[];
    return list.length > 0 ? r.pick(list) : member.home;
  };

  // ordinary visits: members draw visits in proportion to 1 + Poisson, providers by volume
  while (claims.length < options.claims) {
    const member = members[r.int(members.length)] as Member;
    const provider = choose(member);
    // high-volume providers draw extra visits of members of their own
    push(visit(member, DAY0 + r.int(PERIOD), provider), provider.kind);
    if (provider.kind === "volume-mix-provider") continue;
    if (r.next() < 0.005) {
      const mixers = providers.filter((p) => p.kind === "volume-mix-provider");
      for (const p of mixers) {
        for (let k = 0; k < 4; k += 1) {
          const other = members[r.int(members.length)] as Member;
          push(visit(other, DAY0 + r.int(PERIOD), p), p.kind);
        }
      }
    }
  }
  // provider-level labels mark only the affected claims: an upcoder's top-level visits
  for (let c = 0; c < claims.length; c += 1) {
    if (labels[c] !== "upcoding-provider") continue;
    const top = (claims[c] as BatchClaimInput).claim_items.some((i) =>
      ["99214", "99215"].includes(i.service_code),
    );
    if (!top) labels[c] = undefined;
  }

  if (options.inject) {
    const n = claims.length;
    const ordinary = () => {
      for (;;) {
        const c = r.int(n);
        if (labels[c] === undefined) return c;
      }
    };
    const rate = (share: number) => Math.max(5, Math.round(n * share));
    // unit price x3-10 on one item
    for (let k = 0; k < rate(0.008); k += 1) {
      const c = ordinary();
      const claim = claims[c] as BatchClaimInput;
      const target = claim.claim_items[r.int(claim.claim_items.length)] as BatchClaimItemInput;
      target.claimed_amount = Math.round(target.claimed_amount * (3 + 7 * r.next()) * 100) / 100;
      labels[c] = "price";
    }
    // quantity x5-20 on one item
    for (let k = 0; k < rate(0.008); k += 1) {
      const c = ordinary();
      const claim = claims[c] as BatchClaimInput;
      const target = claim.claim_items[r.int(claim.claim_items.length)] as BatchClaimItemInput;
      target.claimed_quantity = target.claimed_quantity * (5 + r.int(16));
      labels[c] = "quantity";
    }
    // length of stay x4-6 (on real inpatient claims stays of three times a diagnosis' median are common: the
    // detector asks for more, see STAY in sensitivity.ts)
    const stays = claims.map((c, k) => (c.admission_date !== undefined && labels[k] === undefined ? k : -1));
    const inpatient = stays.filter((k) => k >= 0);
    for (let k = 0; k < Math.max(5, Math.round(inpatient.length * 0.08)); k += 1) {
      const c = inpatient[r.int(inpatient.length)] as number;
      if (labels[c] !== undefined) continue;
      const claim = claims[c] as BatchClaimInput;
      const from = Date.parse(`${claim.admission_date}T00:00:00Z`) / 86_400_000;
      const to = Date.parse(`${claim.discharge_date}T00:00:00Z`) / 86_400_000;
      claim.discharge_date = isoOfDay(from + Math.max(3, Math.round((to - from) * (4 + 2 * r.next()))));
      labels[c] = "stay";
    }
    // near-duplicates: a copy at another provider of the same type, 0-3 days apart
    for (let k = 0; k < rate(0.004); k += 1) {
      const c = ordinary();
      const original = claims[c] as BatchClaimInput;
      const peers = providers.filter(
        (p) => p.type === original.medical_provider_type && p.id !== original.provider_id,
      );
      const other = r.pick(peers);
      const day = Date.parse(`${original.claim_date}T00:00:00Z`) / 86_400_000 + r.int(4);
      push(
        {
          ...original,
          provider_id: other.id,
          claim_date: isoOfDay(day),
          claim_items: original.claim_items.map((i) => ({
            ...i,
            claimed_amount: Math.round(i.claimed_amount * Math.exp(0.05 * r.normal()) * 100) / 100,
          })),
        },
        "near-duplicate",
      );
    }
    // same-day splits: a claim of 4 items or more cut into 2 or 3 claims
    for (let k = 0; k < rate(0.004); k += 1) {
      let c = ordinary();
      while ((claims[c] as BatchClaimInput).claim_items.length < 4) c = ordinary();
      const original = claims[c] as BatchClaimInput;
      const parts = Math.min(original.claim_items.length >> 1, 2 + r.int(2));
      const items = original.claim_items;
      original.claim_items = [];
      const pieces: BatchClaimInput[] = [original];
      for (let q = 1; q < parts; q += 1) pieces.push({ ...original, claim_items: [] });
      items.forEach((i, q) => {
        (pieces[q % parts] as BatchClaimInput).claim_items.push(i);
      });
      labels[c] = "split";
      for (const piece of pieces.slice(1)) push(piece, "split");
    }
    // doctor shopping: 6-9 clinics for one complaint within a month
    for (let k = 0; k < Math.max(3, Math.round(members.length * 0.003)); k += 1) {
      const member = members[r.int(members.length)] as Member;
      const dx = r.pick(ACUTE);
      const start = DAY0 + r.int(PERIOD - 30);
      const seen = new Set<Provider>();
      const times = 6 + r.int(4);
      while (seen.size < times) seen.add(clinics[r.weighted(clinicWeights)] as Provider);
      for (const provider of seen) push(visit(member, start + r.int(30), provider, dx), "doctor-shopping");
    }
    // excessive visits: 15-30 claims
    for (let k = 0; k < Math.max(3, Math.round(members.length * 0.002)); k += 1) {
      const member = members[r.int(members.length)] as Member;
      const times = 15 + r.int(16);
      for (let q = 0; q < times; q += 1) {
        const provider = r.next() < 0.7 ? member.home : (clinics[r.weighted(clinicWeights)] as Provider);
        push(visit(member, DAY0 + r.int(PERIOD), provider), "excessive-visits");
      }
    }
  }
  return { claims, labels, anomalousProviders, providers: providers.map((p) => p.id) };
}

// ---------------------------------------------------------------------------------------------------------
// measures

/** claims with an item whose score reaches the threshold (the statistical detectors only run) */
function flaggedClaims(view: ColumnarBatchView, decisions: BatchDecisions, threshold = 0.5): Uint8Array {
  const flagged = new Uint8Array(view.claimCount);
  for (let i = 0; i < view.itemCount; i += 1) {
    if ((decisions.itemScore[i] as number) >= threshold) flagged[view.itemClaim[i] as number] = 1;
  }
  return flagged;
}

function codesOf(decisions: BatchDecisions, flagged: (item: number) => boolean): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const [item, findings] of decisions.itemFindings) {
    if (!flagged(item)) continue;
    for (const f of findings) codes[f.code] = (codes[f.code] ?? 0) + 1;
  }
  return codes;
}

// ---------------------------------------------------------------------------------------------------------

const CLAIMS = 20_000;

describe("fwa statistical detectors on a synthetic batch", () => {
  for (const [name, variant] of [
    ["members loyal to a home clinic", {}],
    ["no home clinic, wider prices", { loyalty: 0, priceNoise: 0.2, providerNoise: 0.12 }],
  ] as const) {
    it(`flag few claims of a clean batch: ${name}`, (t) => {
      const { claims } = synthesize({ claims: CLAIMS, seed: 7, inject: false, ...variant });
      const view = viewOf(claims);
      const started = performance.now();
      const decisions = analyzeBatch(view, STATISTICAL_DETECTORS, { flagThreshold: 0.5 });
      const took = performance.now() - started;
      const flagged = flaggedClaims(view, decisions);
      const rate = flagged.reduce((a, b) => a + b, 0) / view.claimCount;
      t.diagnostic(
        `clean (${name}): ${view.claimCount} claims, ${view.itemCount} items; detectors ${took.toFixed(0)} ms; ` +
          `flagged claims ${(rate * 100).toFixed(2)}%; flagged items by code ` +
          JSON.stringify(codesOf(decisions, (i) => (decisions.itemScore[i] as number) >= 0.5)),
      );
      assert.ok(rate <= 0.02, `false-positive rate ${rate}`);
      // the rules find nothing in it either
      const all = analyzeBatch(view, FWA_DETECTORS, { flagThreshold: 0.5 });
      assert.equal(all.summary.rejected, 0);
    });
  }

  it("find the planted anomalies and rank anomalous providers first", (t) => {
    const { claims, labels, anomalousProviders, providers } = synthesize({
      claims: CLAIMS,
      seed: 8,
      inject: true,
    });
    const view = viewOf(claims);
    const started = performance.now();
    const decisions = analyzeBatch(view, STATISTICAL_DETECTORS, { flagThreshold: 0.5 });
    const took = performance.now() - started;
    const flagged = flaggedClaims(view, decisions);
    const byKind = new Map<string, [number, number]>();
    let cleanFlagged = 0;
    let clean = 0;
    labels.forEach((label, c) => {
      if (label === undefined) {
        clean += 1;
        cleanFlagged += flagged[c] as number;
        return;
      }
      const [hit, all] = byKind.get(label) ?? [0, 0];
      byKind.set(label, [hit + (flagged[c] as number), all + 1]);
    });
    const recall = Object.fromEntries([...byKind].map(([kind, [hit, all]]) => [kind, `${hit}/${all}`]));
    const providerIndex = new Map<string, number>();
    for (let c = 0; c < view.claimCount; c += 1) {
      providerIndex.set(view.strings[view.providerId[c] as number] as string, view.providerId[c] as number);
    }
    const scoreOf = (id: string) => decisions.providerScore.get(providerIndex.get(id) ?? -1) ?? 0;
    const present = providers.filter((id) => providerIndex.has(id));
    const positives = present.filter((id) => anomalousProviders.has(id)).map(scoreOf);
    const negatives = present.filter((id) => !anomalousProviders.has(id)).map(scoreOf);
    const providerAuc = rocAuc(positives, negatives);
    t.diagnostic(
      `planted: ${view.claimCount} claims, ${view.itemCount} items; detectors ${took.toFixed(0)} ms; recall ` +
        `${JSON.stringify(recall)}; unplanted claims flagged ${((cleanFlagged / clean) * 100).toFixed(2)}%; ` +
        `provider AUC ${providerAuc.toFixed(3)} (${positives.length} anomalous, ${negatives.length} normal)`,
    );
    for (const [kind, [hit, all]] of byKind) assert.ok(hit / all >= 0.8, `recall of ${kind}: ${hit}/${all}`);
    assert.ok(providerAuc >= 0.95, `provider AUC ${providerAuc}`);
    assert.ok(cleanFlagged / clean <= 0.03, `unplanted claims flagged ${cleanFlagged / clean}`);
  });
});
