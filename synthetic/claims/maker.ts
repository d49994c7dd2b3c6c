/**
 * Makes the claims of a batch one by one (random stream 1 of the seed; hooks get stream 2), and offers the
 * hooks a context to make further claims as it does and to queue them into the batch.
 */
import { ageOn } from "../../src/engine/fwa/columns/days.js";
import type { BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import type { Config } from "../config.js";
import { dateText } from "../dates.js";
import type { Diagnosis } from "../population/diagnoses.js";
import { SERVICES, type Service, service } from "../population/services.js";
import { mixSeed, Rng } from "../random.js";
import type { ClaimContext, ClaimSpec, Population } from "../types.js";
import { buildClaim, type ClaimSource, type Serials } from "./build-claim.js";
import { ACUTE_DX, type Encounter, Encounters } from "./encounters.js";

const SERVICE_INDEX = new Map([...SERVICES.keys()].map((code, i) => [code, i]));

/** a claim a hook added, waiting for its turn */
export interface Queued {
  /** goes out once the batch's claim of this index has */
  at: number;
  claim: BatchClaimInput;
}

export class ClaimMaker {
  private readonly rng: Rng;
  private readonly encounters: Encounters;
  private readonly source: ClaimSource;
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
    this.encounters = new Encounters(config, pop, this.rng);
    this.source = {
      ...{ pop, itemsMin: config.itemsMin, itemsMax: config.itemsMax },
      price: (p, s) => this.price(p, s),
    };
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

  /** the batch's claim of this index; the context then describes it */
  claim(index: number): BatchClaimInput {
    const e = this.encounters.next();
    const claim = buildClaim(this.source, e, this.rng, this.serials, this.claimId(index + 1));
    const { member, provider, dx: diagnosis, setting, age, day } = e;
    Object.assign(this.context, { index, member, provider, diagnosis, setting, age, day });
    return claim;
  }

  private claimId(number: number): string {
    return `CLM-${String(number).padStart(8, "0")}`;
  }

  /** a provider bills a service at one price (its price list): the list price at the provider's level,
   * give or take 3% for the service */
  private price(p: number, s: Service): number {
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
    return buildClaim(this.source, encounter, rng, this.madeSerials, id, spec);
  }
}
