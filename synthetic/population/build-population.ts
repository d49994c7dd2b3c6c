/**
 * The population a batch is drawn from, as of the batch start: policy holders (a few large employers and many
 * small ones), providers of every type with their price levels and the optional fields their systems send,
 * and members with their age, sex, policy, conditions and usual provider of each type.
 */
import { bisect, cumulative, mixSeed, Rng } from "../random.js";
import { NONE, type Population } from "../types.js";
import { AGE_BANDS, PROVIDER_SHARE, PROVIDER_TYPES, SENDS, SENT_BIT, type Sent } from "./shares.js";

const TYPES = PROVIDER_TYPES.length;

/** what the population is drawn from: the seed, the batch start, and how many of each */
export interface PopulationSize {
  seed: number;
  start: number;
  members: number;
  providers: number;
  policyHolders: number;
}

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
