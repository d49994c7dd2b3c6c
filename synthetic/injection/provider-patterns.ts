/**
 * The provider-level FWA patterns (injector.ts holds the rules): clinics chosen at the start of the batch, then
 * an upcoding clinic's visits billed at the top level, and a high-volume clinic's claims multiplied.
 */
import type { BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import { DIAGNOSES, type Diagnosis, poolOf } from "../population/diagnoses.js";
import { FALLBACK, fits, service } from "../population/services.js";
import { CLAIM_SHARE, PROVIDER_TYPES } from "../population/shares.js";
import type { ClaimContext, FwaPattern } from "../types.js";
import type { InjectState } from "./claim-patterns.js";

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
const pct = (share: number): string => `${Math.round(share * 100)}%`;

/** a high-volume clinic's plan, and what it has billed so far */
export interface HighVolume {
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

/** the clinics the provider patterns took, with what each does */
export interface ProviderPlans {
  /** the share of its 99212-99214 visits an upcoding clinic bills as 99215 */
  upcoders: Map<number, number>;
  highVolume: Map<number, HighVolume>;
}

/**
 * Picks the clinics of the provider patterns (as many as their share of claims needs, at least `minProviders`,
 * at most 5% of the clinics) and labels them; the other clinics are left to doctor shoppers (state.clinics).
 */
export function chooseClinics(
  ctx: ClaimContext,
  enabled: ReadonlySet<FwaPattern>,
  share: number,
  minProviders: number,
  state: InjectState,
): ProviderPlans {
  const { rng, truth } = state;
  const upcoders = new Map<number, number>();
  const highVolume = new Map<number, HighVolume>();
  const pop = ctx.population;
  const clinics = [...pop.providerType.keys()].filter((p) => pop.providerType[p] === CLINIC);
  const pool = rng.shuffle([...clinics]);
  const perClinic = (ctx.claims * (CLAIM_SHARE[CLINIC] as number)) / Math.max(1, clinics.length);
  const cap = Math.max(1, Math.floor(clinics.length * 0.05));
  const count = (claimsEach: number): number =>
    share === 0 ? 0 : Math.min(cap, Math.max(minProviders, Math.round((share * ctx.claims) / claimsEach)));
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
  return { upcoders, highVolume };
}

/** an upcoding clinic's claim: each 99212-99214 visit billed as 99215 with the clinic's odds */
export function upcode(claim: BatchClaimInput, ctx: ClaimContext, level: number, state: InjectState): void {
  const { rng, truth } = state;
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

/** a high-volume clinic's own claim: labelled where it repeats an added claim, then its added claims */
export function addVolume(
  claim: BatchClaimInput,
  ctx: ClaimContext,
  plan: HighVolume,
  state: InjectState,
): void {
  const { rng, truth } = state;
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
