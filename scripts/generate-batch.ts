/**
 * Synthetic, clean claims batches for the batch claims service (docs/architecture.md sections 5 and 7). A population of
 * members, policy holders and providers is drawn first; each claim then takes a member, a kind of care on a
 * free day of the member's calendar, and a diagnosis that fits the member's sex and age, and bills services
 * that fit the diagnosis and the setting, at the provider's prices. Everything follows from the seed
 * (mulberry32; no Math.random, no clock). The JSON streams out in chunks and is never held whole: 250,000
 * claims are about 370 MB. Catalogues and rates are in batch-catalogue.ts.
 *
 *   node --import tsx scripts/generate-batch.ts --claims 250000 [--items 4|2-6] [--seed 1] [--gzip] [--out FILE]
 *     [--inject 0.05 [--patterns a,b] [--inject-seed N] [--truth FILE]]
 *
 * FWA injectors plug in as `hooks`: each sees every claim as it is made, with its context and its own random
 * stream (so the clean claims stay the same), and may change the claim or return another in its place; the
 * context also lets a hook build further claims as the generator would (`make`) and add claims to the batch
 * (`emit`). The labelled FWA patterns of scripts/fwa-inject.ts run as the last hook when `inject` is given,
 * and report their ground truth to `truth` (writeBatch writes it beside the batch, as JSON lines).
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { resolve } from "node:path";
import { Readable, Transform, type Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import { ageOn, dayOfText, isoOfDay } from "../src/engine/fwa/days.js";
import { seededRandom } from "../src/engine/fwa/robust.js";
import { NO_DATE } from "../src/engine/fwa/types.js";
import type { BatchClaimInput, BatchClaimItemInput } from "../src/modules/claims-batch/claim.js";
import {
  AGE_BANDS,
  CHRONIC,
  CLAIM_SHARE,
  DIAGNOSES,
  type Diagnosis,
  diagnosisWeight,
  ER_VISIT_WEIGHTS,
  ER_VISITS,
  FALLBACK,
  fits,
  HOSPITAL_SETTINGS,
  HOSPITAL_SHARE,
  JUSTIFICATIONS,
  MARITAL,
  OFFICE_VISIT_WEIGHTS,
  OFFICE_VISITS,
  PROVIDER_SHARE,
  PROVIDER_TYPES,
  poolOf,
  preventiveVisit,
  SENDS,
  SERVICES,
  type Sent,
  type Service,
  type Setting,
  service,
} from "./batch-catalogue.js";
import {
  createInjector,
  FWA_PATTERNS,
  type FwaPattern,
  type InjectOptions,
  type ResolvedInject,
  resolveInject,
  type TruthRecord,
  type TruthSink,
} from "./fwa-inject.js";

export interface GenerateBatchOptions {
  /** number of claims (>= 1) */
  claims: number;
  /** items per claim: a number, or an inclusive range [min, max] drawn uniformly; default 4 */
  itemsPerClaim?: number | readonly [number, number];
  /** default 1 */
  seed?: number;
  /** batch_reference_id (max 100); default `SYN-<startDate>-S<seed>` */
  reference?: string;
  /** first day of the batch, YYYY-MM-DD; default 2026-01-01 */
  startDate?: string;
  /** last day (not before startDate); default startDate + 30 days */
  endDate?: string;
  /** batch description (max 500); "" leaves it out */
  description?: string;
  /** population sizes; defaults claims / 3 members, claims / 250 providers, members / 400 policy holders */
  members?: number;
  providers?: number;
  policyHolders?: number;
  /** called for every claim, in order, once it is built (FWA injectors) */
  hooks?: readonly ClaimHook[];
  /** inject labelled FWA patterns (scripts/fwa-inject.ts), after the hooks; off when absent */
  inject?: InjectOptions;
  /** receives the ground truth of the injected patterns as the batch streams (every iteration anew) */
  truth?: TruthSink;
  /** JSON handed on in chunks of about this many bytes; default 1 MiB */
  chunkBytes?: number;
}

/** a hook may change the claim in place, or return the claim that goes out instead */
export type ClaimHook = (claim: BatchClaimInput, context: ClaimContext) => BatchClaimInput | undefined;

/** what a hook knows about the claim in hand (one object, updated claim by claim) */
export interface ClaimContext {
  /** 0-based index of the claim in the batch */
  index: number;
  /** the hooks' own random stream: hooks never shift the clean claims */
  rng: Rng;
  population: Population;
  /** indexes into the population */
  member: number;
  provider: number;
  diagnosis: Diagnosis;
  setting: Setting;
  /** the member's age at the claim date */
  age: number;
  /** claim date and batch period, days since 1970-01-01 */
  day: number;
  start: number;
  end: number;
  /** the batch's own claim count and items per claim, as configured */
  claims: number;
  itemsMin: number;
  itemsMax: number;
  /**
   * another claim as the generator makes them, for the encounter described, drawn on `rng` (default the
   * hooks' stream): a new claim_id after the batch's own, and item and pre-authorization numbers of its own
   * (the clean claims stay the same); it only goes out once emitted or returned
   */
  make(spec: ClaimSpec, rng?: Rng): BatchClaimInput;
  /**
   * adds a claim to the batch, after `after` more of the batch's own claims have gone out (0, the default:
   * right after the claim in hand); added claims go out in the order emitted within one position, and do not
   * pass through the hooks. Whatever is still queued goes out at the end.
   */
  emit(claim: BatchClaimInput, after?: number): void;
  /** a fresh claim_id, numbered after the batch's own */
  claimId(): string;
  /** the unit price provider p bills for a service (its price list) */
  price(provider: number, code: string): number;
  /** YYYY-MM-DD of a day */
  date(day: number): string;
  /** completed years from a birth day to a day */
  ageAt(dob: number, day: number): number;
}

/** an encounter for ClaimContext.make; the provider should be of the setting's type */
export interface ClaimSpec {
  member: number;
  provider: number;
  setting: Setting;
  diagnosis: Diagnosis;
  /** the claim date (the discharge of a stay) */
  day: number;
  /** the admission of a stay; default the claim date */
  admission?: number;
  /** items billed; default drawn like the batch's */
  items?: number;
  /** office, outpatient and emergency visits: the visit code billed (default drawn as usual) */
  visit?: string;
  /** codes billed after the setting's own first ones (those that fit the member), before the diagnosis' pool */
  extra?: readonly string[];
}

/** the population a batch is drawn from; dates are days since 1970-01-01 */
export interface Population {
  memberId: string[];
  /** 0 male, 1 female */
  memberSex: Uint8Array;
  memberDob: Int32Array;
  /** index into phId */
  memberPh: Int32Array;
  memberInsuranceStart: Int32Array;
  /** NONE when the member has been on the policy since it began */
  memberAddition: Int32Array;
  /** index into MARITAL; -1 not sent */
  memberMarital: Int8Array;
  /** -1 not sent, 0 false, 1 true */
  memberVip: Int8Array;
  /** bit i: the member has CHRONIC[i] */
  memberChronic: Uint8Array;
  /** member m's provider of type t (index into PROVIDER_TYPES): memberProvider[m * 5 + t] */
  memberProvider: Int32Array;
  providerId: string[];
  providerType: Uint8Array;
  /** the provider's contracted price level against the list price */
  providerPrice: Float64Array;
  /** the optional fields the provider's system sends: bit i for the i-th key of SENDS */
  providerSends: Uint16Array;
  phId: string[];
}

export interface BatchStats {
  claims: number;
  items: number;
  /** bytes of JSON */
  bytes: number;
}

export interface GeneratedBatch extends AsyncIterable<Buffer> {
  /** counted as the batch streams; final once the iteration ends */
  readonly stats: BatchStats;
}

export const NONE = -2_147_483_648;
const TYPES = PROVIDER_TYPES.length;
const SENT_BIT = Object.fromEntries(Object.keys(SENDS).map((name, i) => [name, 1 << i])) as Record<
  Sent,
  number
>;
/** days kept clear between a member's claims with one kind of provider */
const NEAR = 3;

// --- random numbers ---------------------------------------------------------------------------------------

/** mulberry32: small, fast, and good enough for synthetic data */
export class Rng {
  /** uniform in [0, 1) */
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)] as T;
  }
  /** an index drawn by weights */
  weighted(weights: readonly number[]): number {
    let r = this.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < weights.length; i += 1) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
  /** shuffles `values` in place (Fisher-Yates) */
  shuffle<T>(values: T[]): T[] {
    for (let i = values.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      [values[i], values[j]] = [values[j] as T, values[i] as T];
    }
    return values;
  }
  /** standard normal (Box-Muller), cut at +-2 */
  normal(): number {
    const z = Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
    return Math.max(-2, Math.min(2, z));
  }
}

/** the seed of stream `stream` of a generator seeded `seed` (murmur3 finaliser) */
function mixSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// --- dates: days since 1970-01-01 (UTC) -------------------------------------------------------------------

const dateTexts = new Map<number, string>();
/** YYYY-MM-DD */
function dateText(day: number): string {
  let text = dateTexts.get(day);
  if (text === undefined) {
    text = isoOfDay(day);
    dateTexts.set(day, text);
  }
  return text;
}

function parseDay(text: string, what: string): number {
  const day = dayOfText(text);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || day === NO_DATE || dateText(day) !== text)
    throw new Error(`${what} must be a date YYYY-MM-DD`);
  return day;
}

/** HH:mm:00.000Z of a minute of the day */
const clock = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00.000Z`;

// --- options ----------------------------------------------------------------------------------------------

interface Config {
  claims: number;
  itemsMin: number;
  itemsMax: number;
  seed: number;
  reference: string;
  description: string;
  start: number;
  end: number;
  members: number;
  providers: number;
  policyHolders: number;
  hooks: readonly ClaimHook[];
  inject: ResolvedInject | undefined;
  truth: TruthSink | undefined;
  chunkBytes: number;
}

function resolveConfig(options: GenerateBatchOptions): Config {
  const whole = (value: number, what: string, min: number, max: number): number => {
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${what} must be a whole number from ${min} to ${max}`);
    return value;
  };
  const claims = whole(options.claims, "claims", 1, 100_000_000);
  const items = options.itemsPerClaim ?? 4;
  const [lo, hi] = typeof items === "number" ? [items, items] : items;
  const itemsMin = whole(lo, "itemsPerClaim", 1, 1000);
  const itemsMax = whole(hi, "itemsPerClaim (upper bound)", itemsMin, 1000);
  const seed = whole(options.seed ?? 1, "seed", 0, 0xffffffff);
  const startText = options.startDate ?? "2026-01-01";
  const start = parseDay(startText, "startDate");
  const end = options.endDate === undefined ? start + 30 : parseDay(options.endDate, "endDate");
  if (end < start) throw new Error("endDate must not precede startDate");
  const reference = options.reference ?? `SYN-${startText}-S${seed}`;
  if (reference.length < 1 || reference.length > 100)
    throw new Error("reference must have 1 to 100 characters");
  const inject = options.inject === undefined ? undefined : resolveInject(options.inject);
  const description =
    options.description ??
    (inject === undefined
      ? `Synthetic clean claims batch: ${claims} claims, seed ${seed}`
      : `Synthetic claims batch with injected FWA patterns (rate ${inject.rate}): ${claims} claims and ` +
        `the ones injectors add, seed ${seed}`);
  if (description.length > 500) throw new Error("description must have at most 500 characters");
  const members = whole(options.members ?? Math.max(20, Math.ceil(claims / 3)), "members", 1, 50_000_000);
  const providers = whole(
    options.providers ?? Math.max(10, Math.ceil(claims / 250)),
    "providers",
    TYPES,
    1e7,
  );
  const policyHolders = whole(
    options.policyHolders ?? Math.max(3, Math.ceil(members / 400)),
    "policyHolders",
    1,
    1e7,
  );
  const chunkBytes = whole(options.chunkBytes ?? 1 << 20, "chunkBytes", 1, 1 << 28);
  return {
    ...{ claims, itemsMin, itemsMax, seed, reference, description, start, end },
    ...{ members, providers, policyHolders, hooks: options.hooks ?? [], chunkBytes },
    ...{ inject, truth: options.truth },
  };
}

// --- population -------------------------------------------------------------------------------------------

type PopulationSize = Pick<Config, "seed" | "start" | "members" | "providers" | "policyHolders">;

/** members, their policy holders and providers, as of the batch start (random stream 0 of the seed) */
export function buildPopulation(config: PopulationSize): Population {
  const rng = new Rng(mixSeed(config.seed, 0));
  const { start, members: m, providers: p, policyHolders: h } = config;
  // policy holders: a few large employers and many small ones, with policies renewed within the past year
  const phId = Array.from({ length: h }, (_, i) => `PH-${String(i + 1).padStart(5, "0")}`);
  const phCumulative = cumulative(Array.from({ length: h }, (_, i) => 1 / (i + 1) ** 0.8));
  const phStart = Int32Array.from({ length: h }, () => start - rng.int(30, 364));
  const phVip = Uint8Array.from({ length: h }, () => (rng.chance(0.05) ? 1 : 0));
  // providers: every type present; a contracted price level; the optional fields their systems send
  const providerType = Uint8Array.from({ length: p }, (_, i) =>
    i < TYPES ? i : rng.weighted(PROVIDER_SHARE),
  );
  const byType = PROVIDER_TYPES.map((_, t) => [...providerType.keys()].filter((i) => providerType[i] === t));
  const providerId = Array.from({ length: p }, (_, i) => `PRV-${10001 + i}`);
  const providerPrice = Float64Array.from({ length: p }, () => Math.exp(0.04 * rng.normal()));
  const providerSends = Uint16Array.from({ length: p }, () =>
    Object.entries(SENDS).reduce(
      (bits, [name, odds]) => (rng.chance(odds) ? bits | SENT_BIT[name as Sent] : bits),
      0,
    ),
  );
  const pop: Population = {
    memberId: new Array<string>(m),
    memberSex: new Uint8Array(m),
    memberDob: new Int32Array(m),
    memberPh: new Int32Array(m),
    memberInsuranceStart: new Int32Array(m),
    memberAddition: new Int32Array(m),
    memberMarital: new Int8Array(m),
    memberVip: new Int8Array(m),
    memberChronic: new Uint8Array(m),
    memberProvider: new Int32Array(m * TYPES),
    ...{ providerId, providerType, providerPrice, providerSends, phId },
  };
  const bandWeights = AGE_BANDS.map((band) => band[2]);
  for (let i = 0; i < m; i += 1) {
    // national-id-like: 10 digits, 1 for citizens, 2 for residents; a bijection of the index keeps them unique
    pop.memberId[i] =
      `${rng.chance(0.6) ? 1 : 2}${String((i * 7_654_321 + 12_345_679) % 1e9).padStart(9, "0")}`;
    const female = rng.chance(0.45);
    pop.memberSex[i] = female ? 1 : 0;
    const [lo, hi] = AGE_BANDS[rng.weighted(bandWeights)] ?? [18, 39];
    const age = rng.int(lo, hi);
    const dob = age === 0 ? start - rng.int(20, 330) : start - Math.floor(age * 365.25) - rng.int(1, 364);
    pop.memberDob[i] = dob;
    // on the policy since it began, or added later (newborns when born), always before the batch
    const ph = bisect(phCumulative, rng.next() * (phCumulative[h - 1] as number));
    pop.memberPh[i] = ph;
    let insured = phStart[ph] as number;
    let addition = NONE;
    if (dob >= insured) insured = addition = Math.min(dob + rng.int(0, 14), start - 1);
    else if (rng.chance(0.2)) insured = addition = rng.int(insured + 1, start - 1);
    pop.memberInsuranceStart[i] = insured;
    pop.memberAddition[i] = addition;
    const married = rng.chance(age < 18 ? 0 : age < 25 ? 0.3 : 0.75);
    const alone = age >= 30 && rng.chance(age >= 60 ? 0.3 : 0.08) ? (age >= 60 ? 3 : 2) : 0;
    pop.memberMarital[i] = rng.chance(0.9) ? (married ? 1 : alone) : -1;
    pop.memberVip[i] = rng.chance(0.8) ? (phVip[ph] === 1 || rng.chance(0.01) ? 1 : 0) : -1;
    const old = age >= 60;
    let chronic = 0;
    if (age >= 35 && rng.chance(old ? 0.5 : 0.22)) chronic |= 1; // hypertension
    if (age >= 35 && rng.chance(old ? 0.3 : 0.15)) chronic |= 2; // type 2 diabetes
    if (age >= 35 && rng.chance(old ? 0.35 : 0.18)) chronic |= 4; // hyperlipidaemia
    if (age >= 20 && rng.chance(female ? 0.05 : 0.015)) chronic |= 8; // hypothyroidism
    if (age >= 4 && rng.chance(0.05)) chronic |= 16; // asthma
    pop.memberChronic[i] = chronic;
    for (let t = 0; t < TYPES; t += 1) pop.memberProvider[i * TYPES + t] = rng.pick(byType[t] as number[]);
  }
  return pop;
}

function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let total = 0;
  for (const [i, w] of weights.entries()) {
    total += w;
    out[i] = total;
  }
  return out;
}

/** the first index whose cumulative weight exceeds r */
function bisect(cum: Float64Array, r: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] as number) > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// --- claims -----------------------------------------------------------------------------------------------

const SERVICE_INDEX = new Map([...SERVICES.keys()].map((code, i) => [code, i]));
const CHRONIC_DX = CHRONIC.map((code) => DIAGNOSES.find((d) => d.code === code) as Diagnosis);
const ACUTE_DX = DIAGNOSES.filter((d) => d.chronic !== true);
const TYPE_SETTING: readonly Setting[] = ["office", "opd", "pharmacy", "lab", "radiology"];
const SETTING_TYPE: Record<Setting, number> = {
  office: 0,
  opd: 1,
  er: 1,
  inpatient: 1,
  pharmacy: 2,
  lab: 3,
  radiology: 4,
};

const SETTINGS = Object.keys(SETTING_TYPE) as Setting[];
const acuteChoices = new Map<number, { list: Diagnosis[]; cum: Float64Array } | null>();
/** the acute diagnoses of a setting for a sex and age, with cumulative weights */
function acuteChoice(setting: Setting, sex: number, age: number) {
  const key = (SETTINGS.indexOf(setting) * 2 + sex) * 256 + Math.min(age, 255);
  let choice = acuteChoices.get(key);
  if (choice === undefined) {
    const list = ACUTE_DX.filter((d) => diagnosisWeight(d, setting, sex, age) > 0);
    const weights = list.map((d) => diagnosisWeight(d, setting, sex, age));
    choice = list.length === 0 ? null : { list, cum: cumulative(weights) };
    acuteChoices.set(key, choice);
  }
  return choice;
}

/** who, where, when and why */
interface Encounter {
  member: number;
  sex: number;
  age: number;
  chronic: number;
  setting: Setting;
  provider: number;
  dx: Diagnosis;
  day: number;
  /** the first day of a stay (the claim date otherwise) */
  admission: number;
}

/** item and pre-authorization numbers, counted on */
interface Serials {
  item: number;
  preAuth: number;
}

/** a claim a hook added, waiting for its turn */
interface Queued {
  /** goes out once the batch's claim of this index has */
  at: number;
  claim: BatchClaimInput;
}

/** makes the claims of a batch one by one (random stream 1 of the seed; hooks get stream 2) */
class ClaimMaker {
  private readonly rng: Rng;
  /**
   * A calendar per member and kind of care (clinics and hospitals share one), a bit per day modulo 32: a new
   * claim keeps NEAR days clear of the member's other claims there, so that a clean batch holds no accidental
   * duplicates or near-duplicates (the same service for the same member within days).
   */
  private readonly visited: Uint32Array;
  /** the batch's own claims' numbers, and those of the claims hooks make (past the batch's own) */
  private readonly serials: Serials;
  private readonly madeSerials: Serials;
  private madeClaims = 0;
  /** claims hooks added, by `at` (stable) */
  readonly queue: Queued[] = [];
  readonly context: ClaimContext;

  constructor(
    private readonly config: Config,
    private readonly pop: Population,
  ) {
    this.rng = new Rng(mixSeed(config.seed, 1));
    this.visited = new Uint32Array(pop.memberId.length * (TYPES - 1));
    const preAuth = this.rng.int(1_000_000, 8_999_999);
    this.serials = { item: 0, preAuth };
    this.madeSerials = { item: config.claims * config.itemsMax, preAuth: preAuth + config.claims };
    const hooksRng = new Rng(mixSeed(config.seed, 2));
    this.context = {
      ...{ index: 0, rng: hooksRng, population: pop, member: 0, provider: 0 },
      ...{ diagnosis: ACUTE_DX[0] as Diagnosis, setting: "office", age: 0, day: 0 },
      ...{ start: config.start, end: config.end },
      ...{ claims: config.claims, itemsMin: config.itemsMin, itemsMax: config.itemsMax },
      make: (spec, rng = hooksRng) => this.make(spec, rng),
      emit: (claim, after = 0) => this.emit(claim, after),
      claimId: () => this.claimId(config.claims + ++this.madeClaims),
      price: (provider, code) => this.price(provider, service(code)),
      date: dateText,
      ageAt: ageOn,
    };
  }

  private claimId(number: number): string {
    return `CLM-${String(number).padStart(8, "0")}`;
  }

  /** a provider bills a service at one price (its price list): the list price at the provider's level,
   * give or take 3% for the service */
  price(p: number, s: Service): number {
    const spread = Math.exp(
      0.06 * (mixSeed(this.config.seed ^ p, SERVICE_INDEX.get(s.code) ?? 0) / 2 ** 32 - 0.5),
    );
    return Math.max(0.01, Math.round(s.price * (this.pop.providerPrice[p] as number) * spread * 100) / 100);
  }

  private emit(claim: BatchClaimInput, after: number): void {
    if (!Number.isInteger(after) || after < 0) throw new Error("emit: after must be a whole number >= 0");
    const at = this.context.index + after;
    // after the last queued claim due at or before `at` (the queue stays short: a binary search is enough)
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.queue[mid] as Queued).at <= at) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, { at, claim });
  }

  private make(spec: ClaimSpec, rng: Rng): BatchClaimInput {
    const { pop } = this;
    const m = spec.member;
    const age = ageOn(pop.memberDob[m] as number, spec.day);
    const encounter: Encounter = {
      ...{ member: m, sex: pop.memberSex[m] as number, age, chronic: pop.memberChronic[m] as number },
      ...{ setting: spec.setting, provider: spec.provider, dx: spec.diagnosis, day: spec.day },
      admission: spec.admission ?? spec.day,
    };
    const id = this.claimId(this.config.claims + ++this.madeClaims);
    return this.build(encounter, rng, this.madeSerials, id, spec);
  }

  private calendar(slot: number, day: number, near: number): boolean {
    let bits = 0;
    for (let k = -near; k <= near; k += 1) bits |= 1 << ((day - this.config.start + k) & 31);
    return ((this.visited[slot] as number) & bits) === 0;
  }

  encounter(): Encounter {
    const { rng, pop, config } = this;
    const members = pop.memberId.length;
    for (let attempt = 0; ; attempt += 1) {
      let member = rng.int(0, members - 1);
      if (pop.memberChronic[member] === 0 && rng.chance(0.35)) member = rng.int(0, members - 1);
      const type = attempt < 30 ? rng.weighted(CLAIM_SHARE) : 0;
      const setting =
        type === 1 ? (HOSPITAL_SETTINGS[rng.weighted(HOSPITAL_SHARE)] as Setting) : TYPE_SETTING[type];
      if (setting === undefined) continue;
      const slot = member * (TYPES - 1) + Math.max(0, type - 1);
      let day = config.start;
      let free = false;
      for (let tries = 0; tries < 4 && !free; tries += 1) {
        day = config.start + rng.int(0, config.end - config.start);
        free = this.calendar(slot, day, NEAR);
      }
      if (!free && attempt < 40) continue; // (a population too small for the batch crowds its claims)
      const sex = pop.memberSex[member] as number;
      const dob = pop.memberDob[member] as number;
      const age = ageOn(dob, day);
      const chronic = pop.memberChronic[member] as number;
      let dx: Diagnosis | undefined;
      if (chronic !== 0 && setting !== "er" && setting !== "inpatient" && rng.chance(0.5)) {
        const own = CHRONIC_DX.filter(
          (d, i) => (chronic & (1 << i)) !== 0 && diagnosisWeight(d, setting, sex, age) > 0,
        );
        if (own.length > 0) dx = rng.pick(own);
      }
      const choice = dx === undefined ? acuteChoice(setting, sex, age) : null;
      if (choice !== null) dx = choice.list[bisect(choice.cum, rng.next() * (choice.cum.at(-1) as number))];
      if (dx === undefined) continue;
      // a stay ends on the claim date, starts within the batch, and at the same age
      let admission = day;
      if (setting === "inpatient" && dx.inpatient !== undefined) {
        admission = Math.max(config.start, day - rng.int(dx.inpatient.los[0], dx.inpatient.los[1]));
        while (ageOn(dob, admission) !== age) admission += 1;
      }
      for (let d = admission; d <= day; d += 1)
        this.visited[slot] = (this.visited[slot] as number) | (1 << ((d - config.start) & 31));
      const provider = pop.memberProvider[member * TYPES + SETTING_TYPE[setting]] as number;
      return { member, sex, age, chronic, setting, provider, dx, day, admission };
    }
  }

  /** the services billed: the setting's own first, then the diagnosis' pool, then the setting's fallback */
  services(
    e: Encounter,
    daysSupply: number,
    rng: Rng,
    spec?: ClaimSpec,
  ): { picked: Service[]; quantity: number[] } {
    const { dx, setting, sex, age } = e;
    const n = spec?.items ?? rng.int(this.config.itemsMin, this.config.itemsMax);
    const picked: Service[] = [];
    const quantity: number[] = [];
    const take = (s: Service): void => {
      if (picked.length >= n) return;
      picked.push(s);
      const [lo, hi] = s.qty;
      if (s.code === "99232") quantity.push(Math.max(1, e.day - e.admission - 1));
      else if (setting === "pharmacy" && s.kind === "drug")
        quantity.push(dx.chronic === true ? daysSupply / 30 : rng.chance(0.9) ? 1 : 2);
      else quantity.push(lo === hi || rng.chance(0.75) ? lo : rng.int(lo, hi));
    };
    const draw = (codes: readonly string[], count: number): void => {
      const options: Service[] = [];
      for (const s of codes.map(service))
        if (fits(s, sex, age) && !picked.includes(s) && !options.includes(s)) options.push(s);
      for (let k = 0; k < count && options.length > 0; k += 1)
        take(options.splice(rng.int(0, options.length - 1), 1)[0] as Service);
    };
    if (spec?.visit !== undefined && (setting === "office" || setting === "opd" || setting === "er"))
      take(service(spec.visit));
    else if (setting === "office" || setting === "opd")
      take(
        service(
          dx.preventive === true
            ? preventiveVisit(age)
            : (OFFICE_VISITS[rng.weighted(OFFICE_VISIT_WEIGHTS)] as string),
        ),
      );
    else if (setting === "er") take(service(ER_VISITS[rng.weighted(ER_VISIT_WEIGHTS)] as string));
    else if (setting === "inpatient") {
      for (const code of dx.inpatient?.main ?? []) take(service(code));
      take(service("99222"));
      draw(e.day - e.admission >= 2 ? ["99238", "99232"] : ["99238"], 2);
    } else if (setting === "lab") {
      draw(dx.lab, 1);
      take(service("36415"));
    }
    if (spec?.extra !== undefined) draw(spec.extra, spec.extra.length);
    draw(poolOf(dx, setting), n);
    draw(FALLBACK[setting === "opd" ? "office" : setting], n);
    // more items than the catalogue offers: repeat what the claim already holds
    for (let k = picked.length > 1 ? 1 : 0; picked.length < n; k += 1) take(picked[k] as Service);
    return { picked, quantity };
  }

  /** the batch's claim of this index; the context then describes it */
  claim(index: number): BatchClaimInput {
    const e = this.encounter();
    const claim = this.build(e, this.rng, this.serials, this.claimId(index + 1));
    const { member, provider, dx: diagnosis, setting, age, day } = e;
    Object.assign(this.context, { index, member, provider, diagnosis, setting, age, day });
    return claim;
  }

  private build(e: Encounter, rng: Rng, serials: Serials, id: string, spec?: ClaimSpec): BatchClaimInput {
    const { pop } = this;
    const { member: m, provider: p, dx, setting, age } = e;
    const sends = (name: Sent): boolean => ((pop.providerSends[p] as number) & SENT_BIT[name]) !== 0;
    const inpatient = setting === "inpatient";
    const emergency = setting === "er" || (inpatient && dx.er !== undefined && rng.chance(0.7));
    const pharmacy = setting === "pharmacy";
    const daysSupply = !pharmacy
      ? 0
      : dx.chronic === true
        ? rng.pick([30, 30, 30, 30, 60, 90])
        : rng.pick([3, 5, 7, 7, 10, 14]);
    const { picked, quantity } = this.services(e, daysSupply, rng, spec);
    const claim: BatchClaimInput = {
      claim_id: id,
      claim_type: inpatient || (setting === "er" && rng.chance(0.6)) ? "INSTITUTIONAL" : "PROFESSIONAL",
      claim_sub_type: inpatient ? "IN_PATIENT" : setting === "er" ? "EMERGENCY" : "OUT_PATIENT",
      claim_date: dateText(e.day),
      primary_diagnosis_code: dx.code,
      primary_diagnosis_description: dx.name,
      member_id: pop.memberId[m] as string,
      member_dob: `${dateText(pop.memberDob[m] as number)}T00:00:00.000Z`,
      member_gender: e.sex === 0 ? "MALE" : "FEMALE",
      provider_id: pop.providerId[p] as string,
      medical_provider_type: PROVIDER_TYPES[
        SETTING_TYPE[setting]
      ] as BatchClaimInput["medical_provider_type"],
      ph_id: pop.phId[pop.memberPh[m] as number] as string,
      insurance_start_date: dateText(pop.memberInsuranceStart[m] as number),
      claim_items: [],
    };
    const urgent = inpatient && dx.inpatient?.package === true && dx.sex === "FEMALE"; // a delivery
    if (emergency || inpatient || sends("emergencyFlag")) claim.is_emergency = emergency;
    if (emergency || inpatient || sends("encounter"))
      claim.type_of_encounter = emergency
        ? rng.chance(0.75)
          ? "EMERGENCY"
          : "URGENT"
        : urgent || rng.chance(0.08)
          ? "URGENT"
          : "ROUTINE";
    if (inpatient) {
      claim.admission_date = dateText(e.admission);
      claim.discharge_date = dateText(e.day);
    }
    if (!pharmacy && sends("specialty"))
      claim.doctor_specialty =
        setting === "er"
          ? "Emergency Medicine"
          : age < 14 && (dx.specialty === "Family Medicine" || dx.specialty === "Internal Medicine")
            ? "Pediatrics"
            : dx.specialty;
    if (inpatient && rng.chance(0.9)) {
      claim.admission_code = dx.code;
      claim.admission_diagnosis = dx.name;
    }
    const secondary = CHRONIC_DX.filter((d, i) => (e.chronic & (1 << i)) !== 0 && d !== dx);
    if (secondary.length > 0 && rng.chance(0.85))
      claim.secondary_diagnosis_codes = secondary.map((d) => ({
        type: "secondary",
        code: d.code,
        name: d.name,
      }));
    const marital = pop.memberMarital[m] as number;
    if (marital >= 0) claim.marital_status = MARITAL[marital];
    const vip = pop.memberVip[m] as number;
    if (vip >= 0) claim.is_vip = vip === 1;
    if (pharmacy && rng.chance(0.9)) claim.days_supply = daysSupply;
    if (inpatient || sends("packageFlag"))
      claim.is_package = inpatient && dx.inpatient?.package === true && rng.chance(0.8);
    const addition = pop.memberAddition[m] as number;
    if (addition !== NONE) claim.insurance_addition_date = dateText(addition);
    if (rng.chance(inpatient ? 0.9 : picked.some((s) => s.preAuth) ? 0.8 : 0.03)) {
      serials.preAuth += 1;
      claim["pre-auth_number"] = `PA-${serials.preAuth}`;
      claim["pre-auth_status"] = rng.chance(0.94) ? "APPROVED" : "PENDING";
    }
    const itemTimes = inpatient && rng.chance(0.6);
    const admitted = `${dateText(e.admission)}T${clock(rng.int(0, 719))}`;
    const discharged = `${dateText(e.day)}T${clock(rng.int(720, 1200))}`;
    for (const [k, s] of picked.entries()) {
      const item: BatchClaimItemInput = {
        claimed_quantity: quantity[k] as number,
        claimed_amount: this.price(p, s),
        service_code: s.code,
        service_description: s.description,
      };
      const dispensed = pharmacy && s.kind === "drug";
      if (dispensed && sends("duration")) item.duration = `${daysSupply} days`;
      if (itemTimes) {
        item.admission_date = admitted;
        item.discharge_date = discharged;
      }
      if (dispensed && s.frequency !== undefined && sends("frequency")) item.frequency = s.frequency;
      if (rng.chance(s.preAuth ? 0.15 : 0.01)) item.justification = rng.pick(JUSTIFICATIONS);
      serials.item += 1;
      if (sends("erpItem") && rng.chance(0.97)) item.erp_item_id = String(10_000_000 + serials.item);
      if (sends("nphiesCode")) item.nphies_code = s.code;
      if (sends("nphiesType")) item.nphies_type = s.nphiesType;
      if (sends("serviceType")) item.service_type = s.nphiesType;
      claim.claim_items.push(item);
    }
    return claim;
  }
}

function* claimsOf(config: Config): Generator<BatchClaimInput> {
  const maker = new ClaimMaker(config, buildPopulation(config));
  const hooks = [...config.hooks];
  if (config.inject !== undefined) {
    const { inject } = config;
    hooks.push(
      createInjector(inject, new Rng(mixSeed(inject.seed ?? config.seed, 3)), config.truth ?? (() => {})),
    );
  }
  const { queue } = maker;
  for (let index = 0; index < config.claims; index += 1) {
    let claim = maker.claim(index);
    for (const hook of hooks) claim = hook(claim, maker.context) ?? claim;
    yield claim;
    while (queue.length > 0 && (queue[0] as Queued).at <= index) yield (queue.shift() as Queued).claim;
  }
  for (const { claim } of queue.splice(0)) yield claim;
}

/** the claims of a batch as objects, in order: what generateBatch serialises */
export function generateClaims(options: GenerateBatchOptions): Generator<BatchClaimInput> {
  return claimsOf(resolveConfig(options));
}

/**
 * The batch as JSON bytes, in chunks of about `chunkBytes`. The options are checked at once (this throws);
 * every iteration generates the batch anew, byte for byte the same.
 */
export function generateBatch(options: GenerateBatchOptions): GeneratedBatch {
  const config = resolveConfig(options);
  const stats: BatchStats = { claims: 0, items: 0, bytes: 0 };
  return {
    stats,
    async *[Symbol.asyncIterator]() {
      stats.claims = stats.items = stats.bytes = 0;
      let chunk =
        `{"start_date":"${dateText(config.start)}","end_date":"${dateText(config.end)}",` +
        (config.description === "" ? "" : `"description":${JSON.stringify(config.description)},`) +
        `"batch_reference_id":${JSON.stringify(config.reference)},"claims":[`;
      for (const claim of claimsOf(config)) {
        chunk += (stats.claims === 0 ? "" : ",") + JSON.stringify(claim);
        stats.claims += 1;
        stats.items += claim.claim_items.length;
        if (chunk.length >= config.chunkBytes) {
          const bytes = Buffer.from(chunk);
          stats.bytes += bytes.length;
          chunk = "";
          yield bytes;
        }
      }
      const bytes = Buffer.from(`${chunk}]}\n`);
      stats.bytes += bytes.length;
      yield bytes;
    },
  };
}

export interface WriteOptions {
  /** a file; stdout when absent */
  out?: string;
  /** default: when `out` ends in .gz */
  gzip?: boolean;
  /** gzip level, 1-9; default 6 */
  level?: number;
  /**
   * where the ground truth of injected patterns goes (JSON lines); default beside `out`: its name without
   * .gz and .json, then .truth.jsonl. Needed when injecting to stdout (unless the options carry a truth sink).
   */
  truth?: string;
}

export interface WriteResult extends BatchStats {
  /** bytes written (compressed when gzip) */
  written: number;
  gzip: boolean;
  seconds: number;
  /** the ground truth file, when injecting */
  truth?: { path: string; records: number };
}

/** the ground truth's default file beside a batch file: claims.json.gz -> claims.truth.jsonl */
export const truthPathOf = (out: string): string => `${out.replace(/(\.json)?(\.gz)?$/i, "")}.truth.jsonl`;

/** a truth sink writing JSON lines to a file, in blocks */
function truthFile(path: string, also: TruthSink | undefined) {
  const stream: WriteStream = createWriteStream(path);
  let block = "";
  let records = 0;
  const sink: TruthSink = (record: TruthRecord) => {
    block += `${JSON.stringify(record)}\n`;
    records += 1;
    if (block.length >= 1 << 16) {
      stream.write(block);
      block = "";
    }
    also?.(record);
  };
  return {
    sink,
    async close(): Promise<number> {
      stream.end(block);
      await finished(stream);
      return records;
    },
    abort: () => stream.destroy(),
  };
}

async function* paced(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    yield chunk;
    await nextTurn();
  }
}

/** generates a batch into a file or stdout, gzip-compressed on request, respecting backpressure */
export async function writeBatch(
  options: GenerateBatchOptions,
  target: WriteOptions = {},
): Promise<WriteResult> {
  const began = performance.now();
  if (target.truth !== undefined && options.inject === undefined)
    throw new Error("a truth file needs injected patterns (inject)");
  const truthPath =
    options.inject === undefined
      ? undefined
      : (target.truth ?? (target.out === undefined ? undefined : truthPathOf(target.out)));
  if (options.inject !== undefined && truthPath === undefined && options.truth === undefined)
    throw new Error("injected patterns need a truth file when the batch goes to stdout");
  const truth = truthPath === undefined ? undefined : truthFile(truthPath, options.truth);
  const batch = generateBatch(truth === undefined ? options : { ...options, truth: truth.sink });
  const gzip = target.gzip ?? target.out?.endsWith(".gz") ?? false;
  let written = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      done(null, chunk);
    },
  });
  const sink: Writable = target.out === undefined ? process.stdout : createWriteStream(target.out);
  // generating (main thread) and compressing (thread pool) overlap: the event loop turns after every chunk,
  // so zlib's callbacks run and its next job starts while the next chunk is made; an output buffer larger
  // than a compressed chunk makes one job of each chunk
  const source = Readable.from(paced(batch), { objectMode: false, highWaterMark: 1 << 22 });
  const deflate = createGzip({ level: target.level ?? 6, chunkSize: 1 << 20 });
  try {
    if (gzip) await pipeline(source, deflate, count, sink);
    else await pipeline(source, count, sink);
  } catch (error) {
    truth?.abort();
    throw error;
  }
  const records = await truth?.close();
  return {
    ...{ ...batch.stats, written, gzip, seconds: (performance.now() - began) / 1000 },
    ...(truthPath === undefined ? {} : { truth: { path: truthPath, records: records ?? 0 } }),
  };
}

// --- command line -----------------------------------------------------------------------------------------

const USAGE = `usage: node --import tsx scripts/generate-batch.ts --claims N [options]
  --claims N          number of claims (required)
  --items N|MIN-MAX   items per claim (default 4)
  --seed N            random seed (default 1)
  --start YYYY-MM-DD  first day of the batch (default 2026-01-01)
  --end YYYY-MM-DD    last day (default start + 30 days)
  --reference TEXT    batch_reference_id (default SYN-<start>-S<seed>)
  --members N, --providers N   population sizes (default claims/3, claims/250)
  --gzip              compress (also when --out ends in .gz)
  --level 1-9         gzip level (default 6)
  --out FILE          write to FILE (default stdout)
  --inject RATE       inject labelled FWA patterns into this share of the claims (0-0.5, e.g. 0.05)
  --patterns A,B      only these patterns (default all): ${FWA_PATTERNS.join(", ")}
  --inject-seed N     seed of the injection (default the batch seed)
  --min-providers N   providers per provider pattern, at least (default 4)
  --truth FILE        ground truth, JSON lines (default beside --out: NAME.truth.jsonl; needed for stdout)`;

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      claims: { type: "string" },
      items: { type: "string" },
      seed: { type: "string" },
      start: { type: "string" },
      end: { type: "string" },
      reference: { type: "string" },
      members: { type: "string" },
      providers: { type: "string" },
      gzip: { type: "boolean" },
      level: { type: "string" },
      out: { type: "string" },
      inject: { type: "string" },
      patterns: { type: "string" },
      "inject-seed": { type: "string" },
      "min-providers": { type: "string" },
      truth: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true || values.claims === undefined) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = values.help === true ? 0 : 2;
    return;
  }
  const range = values.items?.match(/^(\d+)(?:-|\.\.)(\d+)$/);
  const options: GenerateBatchOptions = {
    claims: Number(values.claims),
    ...(values.items === undefined
      ? {}
      : { itemsPerClaim: range ? [Number(range[1]), Number(range[2])] : Number(values.items) }),
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
    ...(values.start === undefined ? {} : { startDate: values.start }),
    ...(values.end === undefined ? {} : { endDate: values.end }),
    ...(values.reference === undefined ? {} : { reference: values.reference }),
    ...(values.members === undefined ? {} : { members: Number(values.members) }),
    ...(values.providers === undefined ? {} : { providers: Number(values.providers) }),
  };
  const injecting =
    values.inject !== undefined ||
    values.patterns !== undefined ||
    values["inject-seed"] !== undefined ||
    values["min-providers"] !== undefined;
  if (injecting)
    options.inject = {
      rate: values.inject === undefined ? 0.05 : Number(values.inject),
      ...(values.patterns === undefined
        ? {}
        : { patterns: values.patterns.split(",").map((p) => p.trim() as FwaPattern) }),
      ...(values["inject-seed"] === undefined ? {} : { seed: Number(values["inject-seed"]) }),
      ...(values["min-providers"] === undefined ? {} : { minProviders: Number(values["min-providers"]) }),
    };
  const result = await writeBatch(options, {
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(values.gzip === true ? { gzip: true } : {}),
    ...(values.level === undefined ? {} : { level: Number(values.level) }),
    ...(values.truth === undefined ? {} : { truth: values.truth }),
  });
  const fmt = (n: number) => n.toLocaleString("en-US");
  process.stderr.write(
    `${fmt(result.claims)} claims, ${fmt(result.items)} items: ${fmt(result.bytes)} bytes of JSON, ` +
      `${fmt(result.written)} bytes written${result.gzip ? " (gzip)" : ""} to ${values.out ?? "stdout"} ` +
      `in ${result.seconds.toFixed(1)} s\n`,
  );
  if (result.truth !== undefined)
    process.stderr.write(`${fmt(result.truth.records)} ground truth records to ${result.truth.path}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
