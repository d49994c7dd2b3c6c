/**
 * The anomaly score (svc_ai_score), both modes.
 *
 * Model. Each item gets up to four signals, each a number in 0..1:
 *  - price: the claimed unit amount against the tenant's approved items of the same service code, as a robust
 *    z-score z = (x - median) / (1.4826 x MAD). 1.4826 x MAD estimates the standard deviation of normal data
 *    while ignoring outliers; when the peers barely vary the scale is floored at 10% of the median (and one
 *    halala) so a uniform price list does not turn every small deviation into an outlier. Only amounts above
 *    the median count, and only with at least 5 peers. The signal is 0 up to z = 2 and grows linearly to 1
 *    at z = 6.
 *  - quantity: the same, over the claimed quantity.
 *  - rare pair: the primary diagnosis has never been seen with the service in the tenant's history, once that
 *    history holds at least 50 requests: 0.3, rising by 0.1 for every tenfold more history, at most 0.5.
 *    Rarity alone never holds an item: new combinations are often just new codes.
 *  - member pattern: many requests (from 5 to 15 in 30 days) or many providers (from 2 to 6) before the
 *    treatment date, the stronger of the two, scaled to at most 0.5: it describes the member, not the item,
 *    so it alerts alone but holds an item only together with an item signal.
 * The signals combine as independent evidence, score = 1 - prod(1 - s_i), rounded to four decimals: one
 * strong signal is enough and weak ones add up without ever passing 1. An item the rules would approve (some
 * of) whose score is above the tenant's autoApprovalThreshold (default 0.7) is held for the reviewer
 * (docs/architecture.md section 4: "above the tenant's threshold"; a threshold of 1 holds nothing).
 * Every non-zero signal is a reason (source "ai", no NPHIES code) carrying its figures.
 */
import { normalizeIcd10 } from "../../reference/icd10.js";
import { count, sar } from "./format.js";
import { reason } from "./reasons.js";
import type { EngineContext, EngineRequest, Reason, RequestItem } from "./types.js";

export interface Signal {
  /** 0..1 */
  strength: number;
  reason: Reason;
}

export const MIN_PEERS = 5;
export const MIN_PAIR_HISTORY = 50;

const clamp = (x: number): number => Math.min(1, Math.max(0, x));
/** 0 at z 2, 1 at z 6 */
const fromZ = (z: number): number => clamp((z - 2) / 4);
const robustZ = (x: number, median: number, mad: number): number =>
  (x - median) / Math.max(1.4826 * mad, 0.1 * median, 1);

/** the combined score of the signals, 0..1 */
export function combine(signals: readonly Signal[]): number {
  const none = signals.reduce((p, s) => p * (1 - s.strength), 1);
  return Math.round((1 - none) * 10_000) / 10_000;
}

export function itemSignals(request: EngineRequest, item: RequestItem, context: EngineContext): Signal[] {
  const signals: Signal[] = [];
  const peers = context.peers.get(item.serviceCode);
  if (peers !== undefined && peers.count >= MIN_PEERS) {
    const of = `of ${count(peers.count, "approved item")} of ${item.serviceCode}`;
    const z = robustZ(item.unitAmount, peers.medianUnitAmount, peers.madUnitAmount);
    if (fromZ(z) > 0) {
      const times =
        peers.medianUnitAmount > 0 ? `${(item.unitAmount / peers.medianUnitAmount).toFixed(1)} x` : "above";
      const message = `unit price ${sar(item.unitAmount)} is ${times} the median ${sar(peers.medianUnitAmount)} ${of} (robust z ${z.toFixed(1)})`;
      signals.push({ strength: fromZ(z), reason: reason("MZ-AI-01", message) });
    }
    const zq = robustZ(item.quantity, peers.medianQuantity, peers.madQuantity);
    if (fromZ(zq) > 0) {
      const times =
        peers.medianQuantity > 0 ? `${(item.quantity / peers.medianQuantity).toFixed(1)} x` : "above";
      const message = `quantity ${item.quantity} is ${times} the median ${peers.medianQuantity} ${of} (robust z ${zq.toFixed(1)})`;
      signals.push({ strength: fromZ(zq), reason: reason("MZ-AI-02", message) });
    }
  }
  const primary = request.diagnoses.find((d) => d.type === "primary") ?? request.diagnoses[0];
  if (primary !== undefined && context.pairTotal >= MIN_PAIR_HISTORY) {
    const dx = normalizeIcd10(primary.code);
    if ((context.pairCounts.get(`${dx}|${item.serviceCode}`) ?? 0) === 0) {
      const strength = Math.min(0.5, 0.3 + 0.1 * Math.log10(context.pairTotal / MIN_PAIR_HISTORY));
      const message = `primary diagnosis ${dx} has never been seen with service ${item.serviceCode} in ${context.pairTotal} requests`;
      signals.push({ strength, reason: reason("MZ-AI-03", message) });
    }
  }
  return signals;
}

/** the member's activity in the 30 days before the treatment date; the same for every item */
export function memberSignal(context: EngineContext): Signal | null {
  const { requests, providers } = context.memberActivity;
  const strength = 0.5 * Math.max(clamp((requests - 5) / 10), clamp((providers - 2) / 4));
  if (strength <= 0) return null;
  const message = `the member had ${count(requests, "request")} from ${count(providers, "provider")} in the 30 days before the treatment date`;
  return { strength, reason: reason("MZ-AI-04", message) };
}
