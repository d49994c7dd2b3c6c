/**
 * The vocabulary of the synthetic-data package: the generator's options, the hooks' view of a claim in the
 * making, the population, and the labels of the injected FWA patterns with their ground truth records.
 */
import type { BatchClaimInput } from "../src/modules/claims-batch/claim.js";
import type { Diagnosis } from "./population/diagnoses.js";
import type { Setting } from "./population/shares.js";
import type { Rng } from "./random.js";

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
  /** inject labelled FWA patterns (injection/injector.ts), after the hooks; off when absent */
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

/** "no day" in the population's day columns */
export const NONE = -2_147_483_648;

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

// --- injected FWA patterns and their ground truth (injection/injector.ts holds the labelling rules) --------

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
