/**
 * Provider exposure: how much a provider bills against the batch's average provider, and whether its
 * inpatient stays run longer and cost more per day than the batch's. On real labelled claims these were the
 * figures that told providers under investigation apart (volume first, stays and cost per day after it;
 * docs/fwa.md gives the measurements). Each term is computed within the batch alone:
 * - volume: ln(claims / (the batch's claims / its providers));
 * - stay: the provider's mean ln(1 + days) of inpatient stays against the batch's, in batch standard
 *   deviations, shrunk toward the batch by RANKING.shrinkClaims pseudo-claims (one long stay proves little);
 * - cost per day: the same for ln(1 + amount / max(1, days)) of its stays.
 * Their weighed sum (RANKING.provider) is the exposure logit: the provider ranking opens with these terms
 * (ranking/providers.ts); they are no reason on a claim (a provider's size says nothing of one claim). The
 * risk terms, their reasons and the volume term serve the member ranking too.
 */
import { CLAIM_SUB_TYPE } from "../columns/columnar.js";
import { RANKING } from "../sensitivity.js";
import { type ColumnarBatchView, NO_DATE } from "../types.js";
import { count, money, num, times } from "./format.js";

/** one term of a risk score: its part of the logit, and the figures that make it */
export interface RiskTerm {
  code: string;
  description: string;
  weight: number;
  cause: string;
}

/** what a provider adds up to in the batch */
export interface ProviderTally {
  provider: number;
  providerType: number;
  claims: number;
  items: number;
  /** halalas */
  amount: number;
  stays: number;
  /** sums over its stays of ln(1 + days) and ln(1 + amount per day) */
  staySum: number;
  costSum: number;
  /** ln(claims / the batch's average per provider), and the same for the amount */
  volume: number;
  amountRatio: number;
  /** its stays and cost per stay day against the batch's, in batch standard deviations, shrunk */
  stayZ: number;
  costZ: number;
  /** the exposure terms (volume, stay, cost per day) */
  terms: RiskTerm[];
}

const IN_PATIENT = CLAIM_SUB_TYPE.IN_PATIENT;

/** mean and standard deviation of the finite values */
function moments(values: Float64Array): { mean: number; sd: number } {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const v of values)
    if (Number.isFinite(v)) {
      n += 1;
      sum += v;
      squares += v * v;
    }
  const mean = n > 0 ? sum / n : 0;
  return { mean, sd: Math.sqrt(Math.max(0, squares / Math.max(1, n) - mean * mean)) };
}

/** an entity's mean of `sum` over `n`, shrunk toward the batch's mean, in the batch's standard deviations */
export const shrunkZ = (sum: number, n: number, batch: { mean: number; sd: number }): number =>
  batch.sd > 0
    ? ((sum + RANKING.shrinkClaims * batch.mean) / (n + RANKING.shrinkClaims) - batch.mean) / batch.sd
    : 0;

/** a claim's amount in halalas */
export function claimAmount(batch: ColumnarBatchView, c: number): number {
  const end = batch.firstItem[c + 1] as number;
  let total = 0;
  for (let i = batch.firstItem[c] as number; i < end; i += 1)
    total += (batch.quantity[i] as number) * (batch.unitAmount[i] as number);
  return total;
}

/** the volume term's part of the logit */
export const volumeWeight = (claims: number, average: number, weight: number): number =>
  weight * Math.log(claims / average);

/** the volume term, shared with the member ranking */
export function volumeTerm(claims: number, amount: number, average: number, weight: number): RiskTerm {
  return {
    code: "FWA-RANK-VOLUME",
    description: "Claims and amount at stake against the batch's average",
    weight: volumeWeight(claims, average, weight),
    cause: `${count(claims)} claims billing ${money(amount)}, ${times(claims / average)} times the batch's average of ${num(average, 1)} claims`,
  };
}

const tallied = new WeakMap<ColumnarBatchView, Map<number, ProviderTally>>();

/** every provider of the batch with its exposure terms (computed once per batch, by interned provider id) */
export function providerExposure(batch: ColumnarBatchView): Map<number, ProviderTally> {
  const known = tallied.get(batch);
  if (known !== undefined) return known;
  const stay = new Float64Array(batch.claimCount).fill(Number.NaN);
  const cost = new Float64Array(batch.claimCount).fill(Number.NaN);
  const byProvider = new Map<number, ProviderTally>();
  for (let c = 0; c < batch.claimCount; c += 1) {
    const provider = batch.providerId[c] as number;
    let t = byProvider.get(provider);
    if (t === undefined) {
      t = {
        provider,
        providerType: batch.providerType[c] as number,
        claims: 0,
        items: 0,
        amount: 0,
        stays: 0,
        staySum: 0,
        costSum: 0,
        volume: 0,
        amountRatio: 0,
        stayZ: 0,
        costZ: 0,
        terms: [],
      };
      byProvider.set(provider, t);
    }
    const amount = claimAmount(batch, c);
    t.claims += 1;
    t.items += (batch.firstItem[c + 1] as number) - (batch.firstItem[c] as number);
    t.amount += amount;
    const admitted = batch.admissionDate[c] as number;
    const discharged = batch.dischargeDate[c] as number;
    if (batch.claimSubType[c] !== IN_PATIENT || admitted === NO_DATE || discharged === NO_DATE) continue;
    if (discharged < admitted) continue;
    const days = discharged - admitted;
    stay[c] = Math.log1p(days);
    cost[c] = Math.log1p(amount / 100 / Math.max(1, days));
    t.stays += 1;
    t.staySum += stay[c] as number;
    t.costSum += cost[c] as number;
  }
  const stays = moments(stay);
  const costs = moments(cost);
  const average = batch.claimCount / Math.max(1, byProvider.size);
  let totalAmount = 0;
  for (const t of byProvider.values()) totalAmount += t.amount;
  const averageAmount = totalAmount / Math.max(1, byProvider.size);
  const weights = RANKING.provider;
  for (const t of byProvider.values()) {
    const stayZ = shrunkZ(t.staySum, t.stays, stays);
    const costZ = shrunkZ(t.costSum, t.stays, costs);
    t.volume = Math.log(t.claims / average);
    // (a halala's worth added to both, so a provider billing nothing has a finite ratio)
    t.amountRatio = Math.log((t.amount + 100) / (averageAmount + 100));
    t.stayZ = stayZ;
    t.costZ = costZ;
    const meanOf = (sum: number) => Math.expm1(sum / Math.max(1, t.stays));
    t.terms = [
      volumeTerm(t.claims, t.amount, average, weights.volume),
      {
        code: "FWA-RANK-STAY",
        description: "Longer inpatient stays than the batch's",
        weight: weights.stay * stayZ,
        cause: `typical stay ${num(meanOf(t.staySum), 1)} days over ${count(t.stays)} stays against ${num(Math.expm1(stays.mean), 1)} for the batch (${num(stayZ, 2)} standard deviations, shrunk)`,
      },
      {
        code: "FWA-RANK-COST",
        description: "Higher cost per inpatient day than the batch's",
        weight: weights.costPerDay * costZ,
        cause: `typical cost per day ${num(meanOf(t.costSum), 0)} against ${num(Math.expm1(costs.mean), 0)} for the batch (${num(costZ, 2)} standard deviations, shrunk)`,
      },
    ];
  }
  tallied.set(batch, byProvider);
  return byProvider;
}

/** the reasons of a score: its terms that raised it noticeably, strongest first */
export const reasonsOf = (terms: readonly RiskTerm[]): RiskTerm[] =>
  terms.filter((term) => term.weight >= RANKING.reasonFrom).sort((a, b) => b.weight - a.weight);
