/**
 * The sensitivity of the statistical detectors, in one place. Each detector compares a batch with itself
 * (docs/architecture.md section 5: no history), so every threshold here is relative to the batch's own distribution,
 * never an absolute price or count.
 *
 * How scores work. A detector measures evidence (most often a robust z-score: how many robust standard
 * deviations a value lies above its group's median) and turns it into a finding's score in 0..1 through a
 * ScoreCurve: nothing is reported below `min`; the score is 0.5 at `half`, 0.88 at `half + 2 * width` and
 * 0.95 at `half + 3 * width`. An item's score combines its findings, 1 - prod(1 - s); the item is flagged
 * when that reaches the tenant's flag threshold (0.5 by default). So with the default threshold, evidence
 * at `half` flags an item on its own, and two findings of about 0.3 flag it together.
 *
 * To make a detector flag less (fewer false positives), raise its `half` (and `min`); to make it flag more,
 * lower them. Minimum group sizes say how much of the batch a statistic needs before it is trusted; scale
 * floors keep groups whose values barely vary from making small differences look extreme. Prices,
 * quantities and stays are compared on a log scale (their variation is multiplicative: a log-normal price
 * has a symmetric log), so their floors read as ratios: a floor of 0.10 is about a 10% spread.
 */
import type { ScoreCurve } from "./stats/robust.js";

/** unit price against the same service code (FWA-PRICE-01) */
export const PRICE = {
  /** items of a service code (with a positive price) before its prices are judged */
  minGroup: 20,
  /** least scale of ln(price): a code whose prices never vary is judged as if they spread by ~10% */
  scaleFloor: 0.1,
  /** least ratio to the code's median price to report at all */
  minRatio: 1.5,
  /** robust z of ln(price) to score */
  curve: { min: 3, half: 4, width: 0.6 } satisfies ScoreCurve,
  /**
   * supporting evidence, no flag alone: on 40,474 real claims the claims flagged for their price alone were
   * no more often fraud-labelled providers' than all claims (lift 0.96 month by month)
   */
  supporting: true,
} as const;

/** quantity against the same service code (FWA-QTY-01) */
export const QUANTITY = {
  minGroup: 20,
  /**
   * least scale of ln(quantity), ln 1.45: with quantities mostly 1 (MAD 0), 3 is z 2.9 (nothing), 4 is
   * z 3.7 (0.39: flagged only with other evidence), 5 is z 4.3 (0.63)
   */
  scaleFloor: Math.log(1.45),
  /** least ratio to the code's median quantity to report */
  minRatio: 3,
  curve: { min: 3, half: 4, width: 0.6 } satisfies ScoreCurve,
  /** a quantity far out is the item's own evidence: it flags alone */
  supporting: false,
} as const;

/** length of stay against stays with the same primary diagnosis (FWA-LOS-01) */
export const STAY = {
  /** stays of a diagnosis before it is its own group; fewer: its ICD-10 category, its chapter letter, all */
  minGroup: 20,
  /** least scale of ln(1 + days) */
  scaleFloor: 0.15,
  /** a stay must be at least this many times its group's median (in days) ... */
  minRatio: 2,
  /** ... and at least this many days longer */
  minExcessDays: 2,
  /**
   * stays are gated by ratio and excess days; half at z 3.8 because real inpatient claims hold many stays of
   * two to three times their diagnosis' median (at half 2.5, 7 % of 40,474 real claims were flagged for their
   * stay, no more often at providers under investigation than at others)
   */
  curve: { min: 2, half: 3.8, width: 0.4 } satisfies ScoreCurve,
  /**
   * log2(stay / the group's upper quartile, at least 1 day): nothing below 1.5 times, 0.26 at twice the upper
   * quartile (the longest of three stays in four), 0.5 at 2.46 times, 0.87 at 3 times
   */
  pastUpperQuartile: { min: 0.58, half: 1.3, width: 0.15 } satisfies ScoreCurve,
  /**
   * supporting evidence, no flag alone: the 1,634 real claims (4.0 %) flagged for their stay month by month
   * were fraud-labelled providers' 1.08 times as often as all labelled claims
   */
  supporting: true,
} as const;

/** the same member and service within days at different providers (FWA-DUP-01) */
export const NEAR_DUPLICATE = {
  /** at most this many days apart */
  windowDays: 3,
  /** claims of one member compared with each claim (a member with thousands of claims stays linear) */
  maxNeighbours: 64,
  /**
   * Evidence of a pair of claims = (sum over the services they share of -log10(share of the batch's claims
   * that carry the service), each capped at `rarityCap`) x coverage^`coveragePower`, minus log10(number of
   * the member's claims within the window), plus the bonuses below. Sharing an office visit billed on 40% of
   * claims is worth 0.4, a service on 1% of claims 2. Coverage is the shared items over the larger claim's
   * items: a copy of a whole claim has 1; one drug in common between two otherwise different claims, 1/5.
   */
  rarityCap: 3,
  coveragePower: 0.5,
  /** bonus when both claims have the same primary diagnosis */
  sameDiagnosis: 0.4,
  /** bonus when the shared services also agree in quantity and unit price (within `amountTolerance`) */
  sameAmounts: 0.3,
  amountTolerance: 0.1,
  /** further bonus when they agree to the halala (a copy; two providers' own prices rarely do) */
  identicalAmounts: 0.3,
  /** bonus when both are on the same day */
  sameDay: 0.2,
  curve: { min: 0.8, half: 1.6, width: 0.35 } satisfies ScoreCurve,
} as const;

/** one member, one provider, one day, several claims of one claim type (FWA-SPLIT-01) */
export const SPLIT = {
  /** the score of the split itself by number of claims: 2, 3, 4 or more */
  byClaims: [0.35, 0.55, 0.7] as readonly number[],
  /**
   * combined in when every claim of the day has the same primary diagnosis (one encounter billed as several:
   * two claims with it score 0.51)
   */
  sameDiagnosis: 0.25,
  /** combined in when the claims together hold no more items than a typical claim times `smallFactor` */
  smallParts: 0.2,
  smallFactor: 1.5,
} as const;

/** members against the batch's members (FWA-MEMBER-01 providers, FWA-MEMBER-02 visits) */
export const MEMBER = {
  /** members in the batch before its member statistics are trusted */
  minMembers: 50,
  /** least scale of the counts (claims, providers) */
  scaleFloor: 1,
  /** distinct providers that saw the member for one complaint (ICD-10 category), over the whole batch */
  complaintProviders: { min: 3.5, half: 4.5, width: 0.6 } satisfies ScoreCurve,
  /** least distinct providers for one complaint to report at all (in the batch, or within the window) */
  minComplaintProviders: 4,
  /**
   * distinct providers for one complaint within any `windowDays` days: shopping is many doctors in a short
   * time; spread over months, the same count can be ordinary when members do not keep to one clinic
   */
  windowDays: 30,
  complaintWindow: { min: 3, half: 4, width: 0.6 } satisfies ScoreCurve,
  /** distinct providers that saw the member, any complaint */
  providers: { min: 3.5, half: 5, width: 0.75 } satisfies ScoreCurve,
  minProviders: 5,
  /** claims of the member in the batch */
  visits: { min: 3.5, half: 5, width: 0.75 } satisfies ScoreCurve,
  minVisits: 6,
} as const;

/** provider profiles through an isolation forest (FWA-PROV-01) */
export const PROVIDER = {
  /** claims of a provider before it enters the model (smaller ones get no profile score) */
  minClaims: 10,
  /** pseudo-claims at the peers' typical value that shrink a small provider's features towards it */
  priorClaims: 20,
  /** providers of one provider type before they are each other's peers; fewer: all providers */
  minPeers: 10,
  /** isolation forest: trees, sample size per tree, PRNG seed */
  trees: 200,
  sampleSize: 256,
  seed: 0x5eed_f00d,
  /** standardized features below this are clipped (an unusually cheap or quiet provider is no anomaly) */
  clipBelow: -1.5,
  /** least robust scale of each feature across peers, in the feature's units */
  floors: {
    claimsPerMember: 0.1,
    itemsPerClaim: 0.2,
    /** ln of the amount ratio: about 5% */
    amountPerItem: 0.05,
    emergencyShare: 0.02,
    highCostShare: 0.02,
    diagnosisConcentration: 0.02,
    /** ln(claims) */
    volume: 0.3,
  },
  /** an item is high-cost when its line amount is in the batch's top 10% */
  highCostQuantile: 0.9,
  /** least robust scale of the forest's scores across providers */
  forestScaleFloor: 0.01,
  /** a feature "stands out" (is named in the cause) from this robust z against the peers */
  featureZ: 2.5,
  /**
   * the gate: the forest's score counts by this curve of the provider's strongest feature other than volume;
   * half at z 4, 0.92 at z 5, 0.08 at z 3 (with seven features over hundreds of providers, a z of 3 somewhere
   * is chance)
   */
  gate: { min: Number.NEGATIVE_INFINITY, half: 4, width: 0.4 } satisfies ScoreCurve,
  /** robust z of the forest's anomaly score among the batch's providers */
  curve: { min: Number.NEGATIVE_INFINITY, half: 4, width: 0.75 } satisfies ScoreCurve,
  /** a provider whose score is below this reports nothing on its items (a normal provider adds ~0) */
  itemMinScore: 0.05,
} as const;

/** upcoding within a service family (FWA-UPCODE-01) */
export const UPCODING = {
  /** items of a provider in a family before its share is judged (its sampling noise widens the scale) */
  minItems: 10,
  /** providers with that many items in a family (and setting) before they are each other's peers */
  minProviders: 5,
  /** least scale of the share of top levels across providers */
  shareFloor: 0.05,
  /** the provider's share must exceed the peers' median share by this much */
  minExcess: 0.2,
  curve: { min: 2.5, half: 3.5, width: 0.5 } satisfies ScoreCurve,
} as const;

/**
 * The audit ranking of providers and members (ranking/): a logistic score of weighed terms, each in
 * logit units. The provider weights were set on the tune half of the real labelled providers (their ids'
 * SHA-256 even) and are reported on the other half (`npm run bench:fwa:real`); the member weights are set
 * by hand, since no member labels exist.
 */
export const RANKING = {
  /** pseudo-claims at the batch's mean that an entity's mean is shrunk toward (one long stay proves little) */
  shrinkClaims: 5,
  /** a term is a reason when it adds at least this to the logit */
  reasonFrom: 0.25,
  provider: {
    /** the logit of a provider at the batch's average on every term */
    base: -0.4,
    /** per unit of ln(claims / the batch's average per provider) */
    volume: 1.75,
    /** per batch standard deviation of its (shrunk) mean ln(1 + stay days) */
    stay: 0.35,
    /** per batch standard deviation of its (shrunk) mean ln(1 + cost per stay day) */
    costPerDay: 0.6,
    /** per unit of flagged share above the batch's */
    flags: 2,
    /** per unit of the provider-profile detector's score */
    profile: 2,
  },
  member: {
    base: -2,
    volume: 1,
    flags: 3,
    /** per unit of ln(distinct providers) */
    providers: 1,
    pattern: 3,
  },
} as const;

/**
 * The yearly audit (ranking/audit.ts): in a batch spanning `minMonths` months or more, providers are ranked
 * by a weighted mean of percentile ranks of the unsupervised ranking's logit ("ranking") and of rich
 * features (stats/provider-features.ts); a negative weight ranks low values as the risky ones. Set on the
 * tune half of the real labelled providers, the year as one batch; month by month it ranked worse (ROC-AUC
 * 0.849 against 0.864 on the report half), hence the least period.
 */
export const AUDIT = {
  minMonths: 6,
  terms: [
    { feature: "log_amount", weight: 3 },
    /** a long stay is where an inpatient bill grows: a year of claims shows a provider's longest */
    { feature: "longest_stay", weight: 3 },
    { feature: "ranking", weight: 1 },
    { feature: "claims_per_member", weight: 0.5 },
    /** the claim date is the admission date in such claims: a claim dated long before discharge is a long stay */
    { feature: "claim_lag", weight: -0.5 },
    { feature: "long_stay_share", weight: 0.3 },
    /** patients seen by no other provider of the batch */
    { feature: "shared_member_share", weight: -0.3 },
  ] as const satisfies readonly { feature: string; weight: number }[],
  /** a term is a reason when the provider ranks at least this high on it (in its risky direction) */
  reasonFrom: 0.8,
} as const;
