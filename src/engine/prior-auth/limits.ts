/**
 * Limits (standard mode). An item is paid from its category, its benefit and its sub-benefit at once, so what
 * is left for it is the smallest of the three remainders, after the utilization of earlier requests and after
 * the earlier items of this request (items are settled in order). Nothing left rejects the item; less than
 * the item approves what is left. Items held for review reserve their share: the reviewer may approve them.
 */
import { sar } from "./format.js";
import { reason } from "./reasons.js";
import type { EngineContext, EngineRequest, Reason } from "./types.js";

/** per item: null (no effect), a rejection, or a cut of the approved amount to `amount` */
export type LimitFinding =
  | { kind: "reject"; reason: Reason }
  | { kind: "cut"; amount: number; reason: Reason }
  | null;

interface Pool {
  label: string;
  limit: number;
  utilized: number;
  /** used by earlier items of this request */
  taken: number;
}

const left = (pool: Pool): number => Math.max(0, pool.limit - pool.utilized - pool.taken);

/** `wanted[i]`: what the other rules approve of item i, in halalas; `rejected[i]`: another rule rejects it */
export function checkLimits(
  request: EngineRequest,
  context: EngineContext,
  wanted: readonly number[],
  rejected: readonly boolean[],
): LimitFinding[] {
  const category = context.coverage?.category;
  const categoryCode = context.coverage?.link?.categoryCode ?? "";
  if (context.mode !== "standard" || category === undefined) return request.items.map(() => null);
  const pools = new Map<string, Pool>();
  const pool = (key: string, label: string, limit: number, utilized: number): Pool => {
    const existing = pools.get(key);
    if (existing !== undefined) return existing;
    const created = { label, limit, utilized, taken: 0 };
    pools.set(key, created);
    return created;
  };
  const categoryPool = pool("c", `category ${categoryCode}`, category.limit, category.utilized);

  return request.items.map((item, i): LimitFinding => {
    const applicable = [categoryPool];
    if (item.benefitCode !== null) {
      const benefit = category.benefits.find((b) => b.code === item.benefitCode);
      if (benefit === undefined) return null; // benefits.ts rejects it
      applicable.push(pool(`b${benefit.code}`, `benefit ${benefit.code}`, benefit.limit, benefit.utilized));
      if (item.subBenefitCode !== null) {
        const sub = benefit.subBenefits.find((s) => s.code === item.subBenefitCode);
        if (sub === undefined) return null;
        const label = `sub-benefit ${sub.code} of benefit ${benefit.code}`;
        applicable.push(pool(`b${benefit.code}s${sub.code}`, label, sub.limit, sub.utilized));
      }
    }
    // the tightest pool binds; on a tie the most specific one is named
    const binding = applicable.reduce((tightest, p) => (left(p) <= left(tightest) ? p : tightest));
    const remaining = left(binding);
    const want = wanted[i] ?? 0;
    const claimed = item.quantity * item.unitAmount;
    if (remaining === 0 && claimed > 0) {
      return {
        kind: "reject",
        reason: reason(
          "MZ-LIM-01",
          `${binding.label}: limit ${sar(binding.limit)} is used up (${usage(binding)})`,
        ),
      };
    }
    if (rejected[i] === true || want === 0) return null;
    const granted = Math.min(want, remaining);
    for (const p of applicable) p.taken += granted;
    if (granted === want) return null;
    const message = `${binding.label}: ${sar(remaining)} left of the limit ${sar(binding.limit)} (${usage(binding, granted)}); ${sar(granted)} of ${sar(want)} approved, ${sar(want - granted)} rejected`;
    return { kind: "cut", amount: granted, reason: reason("MZ-LIM-02", message) };
  });
}

function usage(pool: Pool, justTaken = 0): string {
  const before = pool.taken - justTaken;
  const earlier = before > 0 ? `, ${sar(before)} of it by earlier items of this request` : "";
  return `${sar(pool.utilized + before)} used${earlier}`;
}
