/**
 * The claim-level FWA patterns (injector.ts holds the rules). Each pattern says which claims it can apply to
 * and changes a claim (or adds claims) when it fires; it labels exactly what it changed or made.
 */
import { dayOfText } from "../../src/engine/fwa/columns/days.js";
import type { BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import { PROVIDER_TYPES } from "../population/shares.js";
import type { Rng } from "../random.js";
import type { ClaimContext, FwaPattern } from "../types.js";
import type { TruthWriter } from "./truth-writer.js";

/** what the patterns share with the injector */
export interface InjectState {
  rng: Rng;
  truth: TruthWriter;
  /** members chosen for doctor shopping: their later claims take no other pattern */
  shoppers: Set<number>;
  /** clinics not taken by a provider pattern (doctor shoppers go round these) */
  clinics: readonly number[];
}

export interface ClaimPattern {
  name: FwaPattern;
  /** the claims one firing touches, on average (the claim and those it adds): keeps the pattern's share */
  weight: number;
  /** whether the pattern can apply to the claim (no random draws: called on every claim) */
  eligible(claim: BatchClaimInput, ctx: ClaimContext, state: InjectState): boolean;
  apply(claim: BatchClaimInput, ctx: ClaimContext, state: InjectState): void;
}

const cents = (amount: number): number => Math.round(amount * 100) / 100;

const duplicateBilling: ClaimPattern = {
  name: "duplicate_billing",
  weight: 2,
  eligible: () => true,
  apply(claim, ctx, { rng, truth }) {
    const copy: BatchClaimInput = { ...structuredClone(claim), claim_id: ctx.claimId() };
    truth.claim(claim, "duplicate_billing", "context");
    truth.claim(copy, "duplicate_billing", "added");
    truth.items(copy, "duplicate_billing", `copy of ${claim.claim_id}`);
    ctx.emit(copy, rng.int(1, 400));
  },
};

const serviceBeforeCoverage: ClaimPattern = {
  name: "service_before_coverage",
  weight: 1,
  eligible: () => true,
  apply(claim, ctx, { rng, truth }) {
    const start = ctx.date(ctx.day + rng.int(1, 45));
    claim.insurance_start_date = start;
    claim.insurance_addition_date = start;
    truth.claim(claim, "service_before_coverage", "changed");
    truth.items(claim, "service_before_coverage", `claim ${claim.claim_date}, insured from ${start}`);
  },
};

/** diagnoses a sex or an age rules out (ICD-10-CM, CMS MCE edits) */
const PREGNANCY = [
  ["O21.0", "Mild hyperemesis gravidarum"],
  ["O23.40", "Unspecified infection of urinary tract in pregnancy, unspecified trimester"],
  ["O99.019", "Anemia complicating pregnancy, unspecified trimester"],
  ["O26.899", "Other specified pregnancy related conditions, unspecified trimester"],
] as const;
const PROSTATE = [
  ["N40.0", "Benign prostatic hyperplasia without lower urinary tract symptoms"],
  ["N40.1", "Benign prostatic hyperplasia with lower urinary tract symptoms"],
  ["N41.0", "Acute prostatitis"],
] as const;
const PERINATAL = [
  ["P59.9", "Neonatal jaundice, unspecified"],
  ["P92.9", "Feeding problem of newborn, unspecified"],
  ["P22.1", "Transient tachypnea of newborn"],
] as const;

type Conflict = readonly [code: string, name: string, why: "gender" | "age", text: string];

/** the diagnoses that conflict with a member's sex or age (never empty: every member has one by sex) */
export function conflictsFor(sex: "MALE" | "FEMALE", age: number): Conflict[] {
  const out: Conflict[] = [];
  const add = (codes: readonly (readonly [string, string])[], why: "gender" | "age", text: string) => {
    for (const [code, name] of codes) out.push([code, name, why, text]);
  };
  if (sex === "MALE") add(PREGNANCY, "gender", "pregnancy for a male");
  else add(PROSTATE, "gender", "prostate for a female");
  if (sex === "FEMALE" && age < 12) add(PREGNANCY, "age", `pregnancy at ${age}`);
  if (sex === "MALE" && age < 15) add(PROSTATE.slice(0, 2), "age", `prostatic hyperplasia at ${age}`);
  if (age >= 1) add(PERINATAL, "age", `perinatal condition at ${age}`);
  return out;
}

const impossibleDiagnosis: ClaimPattern = {
  name: "impossible_diagnosis",
  weight: 1,
  eligible: () => true,
  apply(claim, ctx, { rng, truth }) {
    const options = conflictsFor(claim.member_gender, ctx.age);
    // gender and age conflicts alike, where the member has both
    const why = rng.chance(0.5) ? "gender" : "age";
    const pool = options.some((o) => o[2] === why) ? options.filter((o) => o[2] === why) : options;
    const [code, name, kind, text] = pool[rng.int(0, pool.length - 1)] as Conflict;
    if (claim.admission_code === claim.primary_diagnosis_code) {
      claim.admission_code = code;
      claim.admission_diagnosis = name;
    }
    claim.primary_diagnosis_code = code;
    claim.primary_diagnosis_description = name;
    truth.claim(claim, "impossible_diagnosis", "changed");
    truth.items(claim, "impossible_diagnosis", `${kind}: ${code}, ${text}`);
  },
};

/** a pattern multiplying one item's unit amount or quantity, `by` drawing the new value from the old */
const inflation = (
  name: "price_inflation" | "quantity_inflation",
  field: "claimed_amount" | "claimed_quantity",
  label: string,
  by: (before: number, rng: Rng) => number,
): ClaimPattern => ({
  name,
  weight: 1,
  eligible: () => true,
  apply(claim, _ctx, { rng, truth }) {
    const k = rng.int(0, claim.claim_items.length - 1);
    const item = claim.claim_items[k] as BatchClaimInput["claim_items"][number];
    const before = item[field];
    item[field] = by(before, rng);
    truth.claim(claim, name, "changed");
    truth.item(claim, k, name, `${item.service_code} ${label} ${before} -> ${item[field]}`);
  },
});

const priceInflation = inflation("price_inflation", "claimed_amount", "unit", (before, rng) =>
  cents(before * (3 + 7 * rng.next())),
);
const quantityInflation = inflation(
  "quantity_inflation",
  "claimed_quantity",
  "quantity",
  (before, rng) => before * rng.int(5, 20),
);

const sameDayUnbundling: ClaimPattern = {
  name: "same_day_unbundling",
  weight: 2.5,
  eligible: (claim) => claim.claim_items.length >= 2,
  apply(claim, ctx, { rng, truth }) {
    const items = claim.claim_items;
    const parts = Math.min(items.length, rng.int(2, 3));
    // the first item (the visit, where there is one) stays on the first claim; each other part gets one of
    // the other items at random, and the rest go anywhere
    const order = rng.shuffle([...Array(items.length - 1).keys()].map((k) => k + 1));
    const part = new Array<number>(items.length).fill(0);
    for (const [j, k] of order.entries()) part[k] = j < parts - 1 ? j + 1 : rng.int(0, parts - 1);
    const { claim_items: _, ...header } = claim;
    const added: BatchClaimInput[] = [];
    for (let p = 1; p < parts; p += 1)
      added.push({
        ...structuredClone(header),
        claim_id: ctx.claimId(),
        claim_items: items.filter((_, k) => part[k] === p),
      });
    claim.claim_items = items.filter((_, k) => part[k] === 0);
    const detail = `${claim.claim_id} split into ${parts} claims`;
    truth.claim(claim, "same_day_unbundling", "changed");
    truth.items(claim, "same_day_unbundling", detail);
    for (const other of added) {
      truth.claim(other, "same_day_unbundling", "added");
      truth.items(other, "same_day_unbundling", detail);
      ctx.emit(other, rng.int(0, 20));
    }
  },
};

/** the longest stay the member allows (admitted after birth and insurance start), and the one to reach */
function stay(
  claim: BatchClaimInput,
  ctx: ClaimContext,
): { los: number; least: number; room: number; usual: number } {
  const admission = claim.admission_date === undefined ? ctx.day : dayOfText(claim.admission_date);
  const los = ctx.day - admission;
  const usual = ctx.diagnosis.inpatient?.los[1] ?? 3;
  const m = ctx.member;
  const floor = Math.max(
    ctx.population.memberDob[m] as number,
    ctx.population.memberInsuranceStart[m] as number,
    dayOfText(claim.insurance_start_date),
  );
  return { los, least: Math.max(3 * Math.max(los, 1), 2 * usual), room: ctx.day - floor - 1, usual };
}

const excessiveLos: ClaimPattern = {
  name: "excessive_los",
  weight: 1,
  eligible(claim, ctx) {
    if (claim.claim_sub_type !== "IN_PATIENT" || claim.admission_date === undefined) return false;
    const { least, room } = stay(claim, ctx);
    return room >= least;
  },
  apply(claim, ctx, { rng, truth }) {
    const { los, least, room, usual } = stay(claim, ctx);
    const days = Math.min(room, least + rng.int(0, usual));
    const admitted = ctx.date(ctx.day - days);
    claim.admission_date = admitted;
    for (const item of claim.claim_items) {
      if (item.admission_date !== undefined) item.admission_date = admitted + item.admission_date.slice(10);
      if (item.service_code === "99232") item.claimed_quantity = Math.max(1, days - 1);
    }
    truth.claim(claim, "excessive_los", "changed");
    truth.items(claim, "excessive_los", `stay of ${los} -> ${days} days (${claim.primary_diagnosis_code})`);
  },
};

const doctorShopping: ClaimPattern = {
  name: "doctor_shopping",
  weight: 5.5,
  eligible: (_claim, ctx, { clinics }) =>
    ctx.setting === "office" &&
    ctx.diagnosis.chronic !== true &&
    ctx.diagnosis.preventive !== true &&
    clinics.length >= 5,
  apply(claim, ctx, { rng, truth, shoppers, clinics }) {
    const m = ctx.member;
    shoppers.add(m);
    const own = ctx.population.memberProvider[m * PROVIDER_TYPES.length] as number;
    const visits = rng.int(3, 6);
    const seen = new Set([own, ctx.provider]);
    const pattern = "doctor_shopping";
    const detail = `${visits + 1} clinics within days for ${ctx.diagnosis.code}`;
    truth.member(claim.member_id, pattern, detail);
    truth.claim(claim, pattern, "part");
    truth.items(claim, pattern, detail);
    for (let v = 0; v < visits; v += 1) {
      let provider = -1;
      for (let tries = 0; tries < 50 && provider < 0; tries += 1) {
        const p = clinics[rng.int(0, clinics.length - 1)] as number;
        if (!seen.has(p)) provider = p;
      }
      if (provider < 0) break;
      seen.add(provider);
      const day = Math.min(ctx.end, Math.max(ctx.start, ctx.day + rng.int(-2, 6)));
      const visit = ctx.make({ member: m, provider, setting: "office", diagnosis: ctx.diagnosis, day }, rng);
      truth.claim(visit, pattern, "added");
      truth.items(visit, pattern, detail);
      ctx.emit(visit, rng.int(0, 200));
    }
  },
};

/** in the order the odds are laid out for a draw */
export const CLAIM_PATTERNS: readonly ClaimPattern[] = [
  duplicateBilling,
  serviceBeforeCoverage,
  impossibleDiagnosis,
  priceInflation,
  quantityInflation,
  sameDayUnbundling,
  excessiveLos,
  doctorShopping,
];
