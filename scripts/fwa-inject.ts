/**
 * Labelled FWA patterns for the synthetic claims batches of scripts/generate-batch.ts (docs/architecture.md section 5).
 * The generator runs the injector as its last hook when `inject` is given: it alters some of the batch's clean
 * claims, adds others (made as the generator makes claims, for the same population), and reports exactly
 * what it did as ground truth, one JSON object per line. The detectors are never told: they see the batch.
 *
 * Patterns (kind: rule patterns break a certain rule, statistical ones are unusual only against the batch):
 *   rule         duplicate_billing        a second, identical claim (same member, provider, date, items and
 *                                         every other field; only the claim_id is new), added later in the batch
 *   rule         service_before_coverage  the claim's insurance_start_date (and insurance_addition_date) set to
 *                                         1-45 days after the claim date: the member joined after the service
 *   rule         impossible_diagnosis     the primary diagnosis replaced by one the member's sex or age rules out:
 *                                         a pregnancy O-code for a male or for a girl under 12, prostate N40/N41
 *                                         for a female or N40 for a boy under 15, a perinatal P-code at age 1 or
 *                                         over (detail: "gender" or "age")
 *   statistical  price_inflation          one item's unit amount x3 to x10
 *   statistical  quantity_inflation       one item's quantity x5 to x20
 *   statistical  same_day_unbundling      a claim of 2 or more items split into 2 or 3 claims of the same
 *                                         member, provider and day (the items shared out, none lost)
 *   statistical  excessive_los            an inpatient stay made at least 3 times as long, and at least twice
 *                                         the diagnosis' usual longest stay (the admission moved earlier; the
 *                                         per-day visit 99232 billed for the new stay)
 *   statistical  doctor_shopping          a member: at an office visit for an acute complaint, 3 to 6 more office
 *                                         visits for the same diagnosis at other clinics, from 2 days before to
 *                                         6 days after
 *   statistical  upcoding_provider        a clinic that bills 60-85% of its established-patient visits 99212-
 *                                         99214 as 99215 (at its own 99215 price)
 *   statistical  high_volume_provider     a clinic with 3-5 times its volume: added claims for its own members
 *                                         (60%) and others, of 2 diagnoses only (so most of its claims are on
 *                                         2 diagnoses), with 2-4 more items than the batch's claims, a
 *                                         99214/99215 visit and 2-4 high-cost office services each (more where
 *                                         needed to fill the claim without repeating a service)
 *
 * Rate: `rate` is the share of the batch's claims the injectors touch, counting the claims they add; it is
 * shared evenly by the patterns enabled. Each claim-level pattern fires on a claim it can apply to with the
 * odds that give it its share (one pattern per claim at most). Provider patterns take whole clinics: as many
 * as their share of claims needs, at least `minProviders` each, at most 5% of the clinics (at least one), so
 * in small batches they may touch more than their share. A claim of a labelled provider or member takes no
 * other pattern. Added claims take claim_ids after the batch's own (CLM-<claims + n>) and go out a little
 * later in the stream (a duplicate 1-400 claims after its original).
 *
 * Ground truth (TruthRecord), the labelling rules:
 *   {level: "item", claim_id, item_index, pattern, detail?}: an item that is positive for the pattern (item_index
 *     0-based within the claim as it goes out). Positive are:
 *       duplicate_billing: every item of the added copy (the first claim, the original, is not positive);
 *       service_before_coverage, impossible_diagnosis, excessive_los: every item of the claim (the anomaly is
 *         the claim's);
 *       price_inflation, quantity_inflation: the one item changed;
 *       same_day_unbundling: every item of every part (the claim that keeps the claim_id, and the added ones);
 *       doctor_shopping: every item of the visit it starts from and of the added visits;
 *       upcoding_provider: the visit items changed to 99215 (not the provider's own 99215s, nor its other items);
 *       high_volume_provider: every item of the added claims; of the provider's own claims, only the items
 *         that repeat a service (code and quantity) of an added claim for the same member on the same day (the
 *         added claims keep clear of the member's claims there so far, not of those still to come).
 *   {level: "claim", claim_id, pattern, role}: a claim the injection touched: "changed" (altered), "added"
 *     (made by the injector), "part" (unchanged, but items of it are positive: the first doctor-shopping
 *     visit; a high-volume clinic's own claim that repeats services of an added one),
 *     "context" (unchanged and not positive: a duplicate's original; any other claim of a labelled provider, and
 *     any later claim of a labelled member).
 *   {level: "provider", provider_id, pattern, detail?} and {level: "member", member_id, pattern, detail?}: the
 *     entity patterns (upcoding_provider, high_volume_provider; doctor_shopping).
 * A claim is clean when it has no claim record and neither its provider nor its member has an entity record
 * (a labelled member's claims made before the injector chose it have no claim record).
 */
import type { BatchClaimInput } from "../src/modules/claims-batch/claim.js";
import {
  CLAIM_SHARE,
  DIAGNOSES,
  type Diagnosis,
  FALLBACK,
  fits,
  PROVIDER_TYPES,
  poolOf,
  service,
} from "./batch-catalogue.js";
import { CLAIM_PATTERNS, type InjectState, TruthWriter } from "./fwa-inject-patterns.js";
import type { ClaimContext, ClaimHook, Rng } from "./generate-batch.js";

export const FWA_PATTERNS = [
  "duplicate_billing",
  "service_before_coverage",
  "impossible_diagnosis",
  "price_inflation",
  "quantity_inflation",
  "same_day_unbundling",
  "excessive_los",
  "doctor_shopping",
  "upcoding_provider",
  "high_volume_provider",
] as const;
export type FwaPattern = (typeof FWA_PATTERNS)[number];

/** rule patterns break a rule the batch itself shows; statistical ones stand out only against the batch */
export const PATTERN_KIND: Readonly<Record<FwaPattern, "rule" | "statistical">> = {
  duplicate_billing: "rule",
  service_before_coverage: "rule",
  impossible_diagnosis: "rule",
  price_inflation: "statistical",
  quantity_inflation: "statistical",
  same_day_unbundling: "statistical",
  excessive_los: "statistical",
  doctor_shopping: "statistical",
  upcoding_provider: "statistical",
  high_volume_provider: "statistical",
};

/** the entity a pattern labels besides items, if any */
export const PATTERN_ENTITY: Readonly<Partial<Record<FwaPattern, "provider" | "member">>> = {
  doctor_shopping: "member",
  upcoding_provider: "provider",
  high_volume_provider: "provider",
};

export interface InjectOptions {
  /** share of the batch's claims the injectors touch, counting the claims they add (0..0.5); default 0.05 */
  rate?: number;
  /** the patterns to inject; default all */
  patterns?: readonly FwaPattern[];
  /** seed of the injection's random stream; default the batch's (the clean claims stay the same either way) */
  seed?: number;
  /** at least this many providers per provider pattern (fewer when the clinics are few); default 4 */
  minProviders?: number;
}

export interface ResolvedInject {
  rate: number;
  patterns: readonly FwaPattern[];
  seed?: number;
  minProviders: number;
}

export type TruthRole = "changed" | "added" | "part" | "context";

export type TruthRecord =
  | { level: "item"; claim_id: string; item_index: number; pattern: FwaPattern; detail?: string }
  | { level: "claim"; claim_id: string; pattern: FwaPattern; role: TruthRole }
  | { level: "provider"; provider_id: string; pattern: FwaPattern; detail?: string }
  | { level: "member"; member_id: string; pattern: FwaPattern; detail?: string };

export type TruthSink = (record: TruthRecord) => void;

export function resolveInject(options: InjectOptions): ResolvedInject {
  const rate = options.rate ?? 0.05;
  if (!(typeof rate === "number" && rate >= 0 && rate <= 0.5))
    throw new Error("inject rate must be a number from 0 to 0.5");
  const patterns = options.patterns ?? FWA_PATTERNS;
  for (const p of patterns)
    if (!(FWA_PATTERNS as readonly string[]).includes(p))
      throw new Error(`unknown FWA pattern ${p}: one of ${FWA_PATTERNS.join(", ")}`);
  const seed = options.seed;
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff))
    throw new Error("inject seed must be a whole number from 0 to 4294967295");
  const minProviders = options.minProviders ?? 4;
  if (!(Number.isInteger(minProviders) && minProviders >= 0 && minProviders <= 1000))
    throw new Error("minProviders must be a whole number from 0 to 1000");
  return {
    rate,
    patterns: FWA_PATTERNS.filter((p) => patterns.includes(p)),
    ...(seed === undefined ? {} : { seed }),
    minProviders,
  };
}

/** established-patient office visits below the top level, and the top level */
const UPCODABLE = new Set(["99212", "99213", "99214"]);
const TOP_VISIT = "99215";
/** what a high-volume clinic bills besides its visit: the office's costliest services */
const HIGH_COST: readonly string[] = ["70450", "20610", "72100", "73562", "71046", "96360", "93000"];
/** the diagnoses a high-volume clinic keeps to (two of them): adult office complaints */
const FOCUS = ["M54.5", "M54.2", "M17.9", "I10", "E11.9", "K21.9", "R51"].map(
  (code) => DIAGNOSES.find((d) => d.code === code) as Diagnosis,
);
const CLINIC = 0;

interface HighVolume {
  focus: readonly Diagnosis[];
  /** claims per claim of its own: 3-5 */
  factor: number;
  /** members whose clinic it is */
  own: readonly number[];
  /** member * DAYS + day of the claims there so far */
  busy: Set<number>;
  /** the services (code and quantity) of the added claims, by member * DAYS + day */
  billed: Map<number, Set<string>>;
}
/** keys member-day pairs (days since 1970 stay below this for millennia) */
const DAYS = 2 ** 20;

/** the injector: a hook with its own random stream, state and truth; make one per pass over the batch */
export function createInjector(options: ResolvedInject, rng: Rng, sink: TruthSink): ClaimHook {
  const enabled = new Set(options.patterns);
  const share = options.patterns.length === 0 ? 0 : options.rate / options.patterns.length;
  const truth = new TruthWriter(sink);
  const claimPatterns = CLAIM_PATTERNS.filter((p) => enabled.has(p.name));
  const eligibleSeen = new Float64Array(claimPatterns.length);
  const odds = new Float64Array(claimPatterns.length);
  const upcoders = new Map<number, number>();
  const highVolume = new Map<number, HighVolume>();
  const state: InjectState = { rng, truth, shoppers: new Set(), clinics: [] };
  let considered = 0;
  let started = false;

  function start(ctx: ClaimContext): void {
    started = true;
    const pop = ctx.population;
    const clinics = [...pop.providerType.keys()].filter((p) => pop.providerType[p] === CLINIC);
    const pool = rng.shuffle([...clinics]);
    const perClinic = (ctx.claims * (CLAIM_SHARE[CLINIC] as number)) / Math.max(1, clinics.length);
    const cap = Math.max(1, Math.floor(clinics.length * 0.05));
    const count = (claimsEach: number): number =>
      share === 0
        ? 0
        : Math.min(cap, Math.max(options.minProviders, Math.round((share * ctx.claims) / claimsEach)));
    if (enabled.has("upcoding_provider"))
      for (const p of pool.splice(0, count(perClinic))) {
        const level = 0.6 + 0.25 * rng.next();
        upcoders.set(p, level);
        truth.provider(
          pop.providerId[p] as string,
          "upcoding_provider",
          `bills ${pct(level)} of 99212-99214 as 99215`,
        );
      }
    if (enabled.has("high_volume_provider"))
      for (const p of pool.splice(0, count(perClinic * 4))) {
        const first = rng.int(0, FOCUS.length - 1);
        const second = (first + rng.int(1, FOCUS.length - 1)) % FOCUS.length;
        const focus = [FOCUS[first], FOCUS[second]] as Diagnosis[];
        const factor = 3 + 2 * rng.next();
        const own: number[] = [];
        for (let m = 0; m < pop.memberId.length; m += 1)
          if (pop.memberProvider[m * PROVIDER_TYPES.length + CLINIC] === p) own.push(m);
        highVolume.set(p, { focus, factor, own, busy: new Set(), billed: new Map() });
        truth.provider(
          pop.providerId[p] as string,
          "high_volume_provider",
          `x${factor.toFixed(1)} claims, of ${focus.map((d) => d.code).join(" and ")}`,
        );
      }
    state.clinics = clinics.filter((p) => !upcoders.has(p) && !highVolume.has(p));
  }

  function upcode(claim: BatchClaimInput, ctx: ClaimContext, level: number): void {
    const changed: number[] = [];
    for (const [k, item] of claim.claim_items.entries()) {
      if (!UPCODABLE.has(item.service_code) || !rng.chance(level)) continue;
      const from = item.service_code;
      item.service_code = TOP_VISIT;
      item.service_description = "Office visit, established patient, high complexity";
      item.claimed_amount = ctx.price(ctx.provider, TOP_VISIT);
      if (item.nphies_code !== undefined) item.nphies_code = TOP_VISIT;
      changed.push(k);
      truth.item(claim, k, "upcoding_provider", `${from} -> ${TOP_VISIT}`);
    }
    truth.claim(claim, "upcoding_provider", changed.length > 0 ? "changed" : "context");
  }

  function addVolume(claim: BatchClaimInput, ctx: ClaimContext, plan: HighVolume): void {
    const pop = ctx.population;
    // the provider's own claim: where it falls on the day of an added claim for the member (added claims keep
    // clear of the claims seen so far, not of those to come), the services billed on both are billed twice
    const key = ctx.member * DAYS + ctx.day;
    plan.busy.add(key);
    const twice = plan.billed.get(key);
    let repeated = 0;
    if (twice !== undefined)
      for (const [k, item] of claim.claim_items.entries())
        if (twice.has(`${item.service_code}|${item.claimed_quantity}`)) {
          truth.item(claim, k, "high_volume_provider", `${item.service_code} also billed on an added claim`);
          repeated += 1;
        }
    truth.claim(claim, "high_volume_provider", repeated > 0 ? "part" : "context");
    const extra = plan.factor - 1;
    const n = Math.floor(extra) + (rng.chance(extra - Math.floor(extra)) ? 1 : 0);
    for (let k = 0; k < n; k += 1) {
      const diagnosis = plan.focus[rng.int(0, plan.focus.length - 1)] as Diagnosis;
      // a member the diagnosis fits, insured, not seen there within a day (no accidental duplicates)
      let member = -1;
      let day = ctx.start;
      for (let tries = 0; tries < 30 && member < 0; tries += 1) {
        const m =
          plan.own.length > 0 && rng.chance(0.6)
            ? (plan.own[rng.int(0, plan.own.length - 1)] as number)
            : rng.int(0, pop.memberId.length - 1);
        day = ctx.start + rng.int(0, ctx.end - ctx.start);
        const sex = pop.memberSex[m] as number;
        if (
          fits(diagnosis, sex, ctx.ageAt(pop.memberDob[m] as number, day)) &&
          (pop.memberInsuranceStart[m] as number) < day &&
          ![-1, 0, 1].some((d) => plan.busy.has(m * DAYS + day + d))
        )
          member = m;
      }
      if (member < 0) continue;
      plan.busy.add(member * DAYS + day);
      // 2-4 of the costly services, and more where the diagnosis offers too few services to fill the claim
      // without repeating one (a repeated item is another anomaly)
      const sex = pop.memberSex[member] as number;
      const age = ctx.ageAt(pop.memberDob[member] as number, day);
      const visit = rng.chance(0.6) ? TOP_VISIT : "99214";
      const costly = HIGH_COST.filter((code) => fits(service(code), sex, age));
      rng.shuffle(costly);
      const items = Math.min(1000, ctx.itemsMax + rng.int(2, 4));
      let take = rng.int(2, 4);
      const others = new Set(
        [...poolOf(diagnosis, "office"), ...FALLBACK.office].filter((code) => fits(service(code), sex, age)),
      );
      const distinct = (t: number) => new Set([visit, ...costly.slice(0, t), ...others]).size;
      while (take < costly.length && distinct(take) < items) take += 1;
      const added = ctx.make(
        {
          ...{ member, provider: ctx.provider, setting: "office", diagnosis, day },
          ...{ items: Math.min(items, distinct(take)), visit, extra: costly.slice(0, take) },
        },
        rng,
      );
      const services = plan.billed.get(member * DAYS + day) ?? new Set();
      for (const item of added.claim_items) services.add(`${item.service_code}|${item.claimed_quantity}`);
      plan.billed.set(member * DAYS + day, services);
      truth.claim(added, "high_volume_provider", "added");
      truth.items(added, "high_volume_provider");
      ctx.emit(added, rng.int(0, 30));
    }
  }

  return (claim, ctx) => {
    if (!started) start(ctx);
    const level = upcoders.get(ctx.provider);
    if (level !== undefined) {
      upcode(claim, ctx, level);
      return claim;
    }
    const plan = highVolume.get(ctx.provider);
    if (plan !== undefined) {
      addVolume(claim, ctx, plan);
      return claim;
    }
    if (state.shoppers.has(ctx.member)) {
      truth.claim(claim, "doctor_shopping", "context");
      return claim;
    }
    // each claim-level pattern fires on the claims it fits with the odds that give it its share of the batch
    // (its eligible share estimated as the batch goes); one draw picks at most one
    considered += 1;
    let fitting = 0;
    for (const [i, pattern] of claimPatterns.entries()) {
      odds[i] = 0;
      if (!pattern.eligible(claim, ctx, state)) continue;
      eligibleSeen[i] = (eligibleSeen[i] as number) + 1;
      odds[i] = share / (pattern.weight * ((eligibleSeen[i] as number) / considered));
      fitting += 1;
    }
    if (fitting === 0) return claim;
    let draw = rng.next();
    for (const [i, pattern] of claimPatterns.entries()) {
      draw -= odds[i] as number;
      if (draw < 0) {
        pattern.apply(claim, ctx, state);
        break;
      }
    }
    return claim;
  };
}

const pct = (share: number): string => `${Math.round(share * 100)}%`;
