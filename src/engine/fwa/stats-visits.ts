/**
 * Patterns across one member's claims (docs/architecture.md section 5): near-duplicates across providers and claims
 * split on one day. Both read the member's claims in date order (profile.claimsByMember).
 *
 * Near-duplicates (FWA-DUP-01). Two claims of the same member at DIFFERENT providers at most
 * NEAR_DUPLICATE.windowDays apart that bill the same services (exact duplicates, same provider and day, are
 * rejected by a rule). How surprising a shared service is depends on how common it is: an office visit on 40%
 * of the batch's claims is shared by chance all the time, a scan on 1% rarely. So a pair's evidence is the
 * sum over its shared services of -log10(share of claims carrying the service) (each capped), weighed by how
 * much of the claims is shared (a whole claim copied, or one item in common between otherwise different
 * claims), less log10 of how many of the member's claims were near (more chances, less surprise), plus
 * bonuses for the same primary diagnosis, the same quantities and prices (more when identical to the halala)
 * and the same day; its score follows NEAR_DUPLICATE.curve. A copy of a whole claim scores high even for
 * common services; a second office visit for a cold, low. Either claim may be the copy, so the shared items
 * of both are flagged, each naming the other claim; an item in several pairs keeps its strongest.
 *
 * Same-day splits (FWA-SPLIT-01). Several claims of one claim type for one member at one provider on one day,
 * as when one bill is cut into parts. Claims that exactly repeat another of the day are left to the duplicate
 * rule. The score grows with the number of claims and is raised when they share the primary diagnosis and
 * when together they hold no more items than one typical claim of that type (the parts of one bill), both as
 * combined evidence (SPLIT). Every item of every claim of the day is flagged.
 */
import { BATCH_CLAIM_TYPES } from "./claim.js";
import { at, textOf } from "./columnar.js";
import { isoOfDay } from "./days.js";
import { flag } from "./findings.js";
import { claimsByMember, serviceClaimShare } from "./profile.js";
import { combine, count, num, scoreOf } from "./robust.js";
import { NEAR_DUPLICATE, SPLIT } from "./sensitivity.js";
import type { ColumnarBatchView, Detector, Finding, FindingSink } from "./types.js";

export const NEAR_DUPLICATE_CODE = "FWA-DUP-01";
export const SAME_DAY_SPLIT = "FWA-SPLIT-01";

/** unit amounts within NEAR_DUPLICATE.amountTolerance of each other */
const close = (a: number, b: number): boolean =>
  Math.abs(a - b) <= NEAR_DUPLICATE.amountTolerance * Math.max(a, b);

interface Pair {
  a: number;
  b: number;
  shared: number;
  score: number;
  sameDiagnosis: boolean;
}

export const nearDuplicates: Detector = {
  name: "near-duplicates",
  run(batch, sink) {
    const { start, order } = claimsByMember(batch);
    const share = serviceClaimShare(batch);
    const window = NEAR_DUPLICATE.windowDays;
    const codes = batch.strings.length;
    // per code, within one pair: a stamp, the head of claim a's items with that code, whether counted
    const stamp = new Int32Array(codes).fill(-1);
    const head = new Int32Array(codes);
    const counted = new Int32Array(codes).fill(-1);
    const nextSame = new Int32Array(batch.itemCount);
    const matchedWith = new Int32Array(batch.itemCount);
    // per item: the best pair's score and index
    const best = new Float32Array(batch.itemCount);
    const bestPair = new Int32Array(batch.itemCount).fill(-1);
    const pairs: Pair[] = [];
    let version = 0;

    const members = start.length - 1;
    for (let m = 0; m < members; m += 1) {
      const from = start[m] as number;
      const to = start[m + 1] as number;
      if (to - from < 2) continue;
      for (let x = from; x < to - 1; x += 1) {
        const a = order[x] as number;
        const dayA = at(batch.claimDate, a);
        // claims of the member near a (either side): the chances a shared service had to occur
        let near = 0;
        for (let y = x - 1; y >= from && dayA - at(batch.claimDate, order[y] as number) <= window; y -= 1) {
          near += 1;
          if (near >= NEAR_DUPLICATE.maxNeighbours) break;
        }
        const last = Math.min(to, x + 1 + NEAR_DUPLICATE.maxNeighbours);
        for (let y = x + 1; y < last && at(batch.claimDate, order[y] as number) - dayA <= window; y += 1)
          near += 1;
        for (let y = x + 1; y < last; y += 1) {
          const b = order[y] as number;
          const apart = at(batch.claimDate, b) - dayA;
          if (apart > window) break;
          if (at(batch.providerId, b) === at(batch.providerId, a)) continue;
          version += 1;
          // a's items by code (linked lists)
          const aEnd = at(batch.firstItem, a + 1);
          for (let i = at(batch.firstItem, a); i < aEnd; i += 1) {
            const code = at(batch.serviceCode, i);
            if (stamp[code] !== version) {
              stamp[code] = version;
              head[code] = -1;
            }
            nextSame[i] = head[code] as number;
            head[code] = i;
          }
          let rarity = 0;
          let shared = 0;
          let sameAmounts = true;
          let identicalAmounts = true;
          const bEnd = at(batch.firstItem, b + 1);
          for (let j = at(batch.firstItem, b); j < bEnd; j += 1) {
            const code = at(batch.serviceCode, j);
            matchedWith[j] = -1;
            if (stamp[code] !== version || (head[code] as number) < 0) continue;
            const i = head[code] as number;
            head[code] = nextSame[i] as number;
            matchedWith[j] = i;
            shared += 1;
            const sameQuantity = at(batch.quantity, i) === at(batch.quantity, j);
            if (!sameQuantity || !close(at(batch.unitAmount, i), at(batch.unitAmount, j)))
              sameAmounts = false;
            if (!sameQuantity || at(batch.unitAmount, i) !== at(batch.unitAmount, j))
              identicalAmounts = false;
            if (counted[code] !== version) {
              counted[code] = version;
              rarity += Math.min(
                -Math.log10(Math.max(share[code] as number, 1e-9)),
                NEAR_DUPLICATE.rarityCap,
              );
            }
          }
          if (shared === 0) continue;
          const sameDiagnosis = at(batch.primaryDiagnosis, a) === at(batch.primaryDiagnosis, b);
          const coverage = shared / Math.max(aEnd - at(batch.firstItem, a), bEnd - at(batch.firstItem, b));
          let evidence = rarity * coverage ** NEAR_DUPLICATE.coveragePower - Math.log10(Math.max(1, near));
          if (sameDiagnosis) evidence += NEAR_DUPLICATE.sameDiagnosis;
          if (sameAmounts) evidence += NEAR_DUPLICATE.sameAmounts;
          if (identicalAmounts) evidence += NEAR_DUPLICATE.identicalAmounts;
          if (apart === 0) evidence += NEAR_DUPLICATE.sameDay;
          const score = scoreOf(evidence, NEAR_DUPLICATE.curve);
          if (score <= 0) continue;
          const p = pairs.length;
          pairs.push({ a, b, shared, score, sameDiagnosis });
          for (let j = at(batch.firstItem, b); j < bEnd; j += 1) {
            const i = matchedWith[j] as number;
            if (i < 0) continue;
            if (score > (best[j] as number)) {
              best[j] = score;
              bestPair[j] = p;
            }
            if (score > (best[i] as number)) {
              best[i] = score;
              bestPair[i] = p;
            }
          }
        }
      }
    }

    for (let i = 0; i < batch.itemCount; i += 1) {
      const p = bestPair[i] as number;
      if (p < 0) continue;
      const pair = pairs[p] as Pair;
      const own = at(batch.itemClaim, i);
      const other = own === pair.a ? pair.b : pair.a;
      const apart = Math.abs(at(batch.claimDate, other) - at(batch.claimDate, own));
      const services = at(batch.firstItem, own + 1) - at(batch.firstItem, own);
      const cause =
        `service ${textOf(batch, at(batch.serviceCode, i))} is also billed for this member by provider ` +
        `${textOf(batch, at(batch.providerId, other))} in claim ${textOf(batch, at(batch.claimId, other))} ` +
        `on ${isoOfDay(at(batch.claimDate, other))}, ${apart === 1 ? "1 day" : `${count(apart)} days`} apart; ` +
        `${count(pair.shared)} of this claim's ${count(services)} services repeat there` +
        (pair.sameDiagnosis
          ? `, same primary diagnosis ${textOf(batch, at(batch.primaryDiagnosis, own))}`
          : "");
      sink.item(
        i,
        flag(
          NEAR_DUPLICATE_CODE,
          "Same service for the member at another provider within days",
          cause,
          pair.score,
        ),
      );
    }
  },
};

/** the median number of items per claim, by claim type (0..255) */
function medianItemsByType(batch: ColumnarBatchView): Float64Array {
  const histograms = new Map<number, Map<number, number>>();
  const totals = new Map<number, number>();
  for (let c = 0; c < batch.claimCount; c += 1) {
    const type = at(batch.claimType, c);
    const items = at(batch.firstItem, c + 1) - at(batch.firstItem, c);
    let histogram = histograms.get(type);
    if (histogram === undefined) {
      histogram = new Map();
      histograms.set(type, histogram);
    }
    histogram.set(items, (histogram.get(items) ?? 0) + 1);
    totals.set(type, (totals.get(type) ?? 0) + 1);
  }
  const median = new Float64Array(256);
  for (const [type, histogram] of histograms) {
    const half = (totals.get(type) ?? 0) / 2;
    let seen = 0;
    for (const [items, n] of [...histogram].sort((x, y) => x[0] - y[0])) {
      seen += n;
      if (seen >= half) {
        median[type] = items;
        break;
      }
    }
  }
  return median;
}

/** a claim's items as one comparable text (only for claims sharing a member, provider and day) */
function signature(batch: ColumnarBatchView, c: number): string {
  const parts: string[] = [];
  const end = at(batch.firstItem, c + 1);
  for (let i = at(batch.firstItem, c); i < end; i += 1) {
    parts.push(`${at(batch.serviceCode, i)}:${at(batch.quantity, i)}:${at(batch.unitAmount, i)}`);
  }
  return parts.sort().join("|");
}

export const sameDaySplits: Detector = {
  name: "same-day-splits",
  run(batch, sink) {
    const { start, order } = claimsByMember(batch);
    const typical = medianItemsByType(batch);
    const members = start.length - 1;
    const day: number[] = [];
    for (let m = 0; m < members; m += 1) {
      const from = start[m] as number;
      const to = start[m + 1] as number;
      for (let x = from; x < to; ) {
        const date = at(batch.claimDate, order[x] as number);
        let y = x + 1;
        while (y < to && at(batch.claimDate, order[y] as number) === date) y += 1;
        if (y - x >= 2) {
          day.length = 0;
          for (let r = x; r < y; r += 1) day.push(order[r] as number);
          // by provider, claim type, then batch order
          day.sort(
            (p, q) =>
              at(batch.providerId, p) - at(batch.providerId, q) ||
              at(batch.claimType, p) - at(batch.claimType, q) ||
              p - q,
          );
          for (let u = 0; u < day.length; ) {
            const first = day[u] as number;
            let v = u + 1;
            while (
              v < day.length &&
              at(batch.providerId, day[v] as number) === at(batch.providerId, first) &&
              at(batch.claimType, day[v] as number) === at(batch.claimType, first)
            )
              v += 1;
            if (v - u >= 2) report(batch, sink, day.slice(u, v), typical);
            u = v;
          }
        }
        x = y;
      }
    }
  },
};

function report(batch: ColumnarBatchView, sink: FindingSink, claims: number[], typical: Float64Array): void {
  // claims that exactly repeat an earlier one of the day are the duplicate rule's
  const seen = new Set<string>();
  const parts: number[] = [];
  for (const c of claims) {
    const key = signature(batch, c);
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(c);
  }
  if (parts.length < 2) return;
  const firstClaim = parts[0] as number;
  const type = at(batch.claimType, firstClaim);
  let items = 0;
  let sameDiagnosis = true;
  for (const c of parts) {
    items += at(batch.firstItem, c + 1) - at(batch.firstItem, c);
    if (at(batch.primaryDiagnosis, c) !== at(batch.primaryDiagnosis, firstClaim)) sameDiagnosis = false;
  }
  const usual = typical[type] as number;
  const small = items <= SPLIT.smallFactor * usual;
  const byClaims = SPLIT.byClaims;
  let score = byClaims[Math.min(parts.length - 2, byClaims.length - 1)] as number;
  if (sameDiagnosis) score = combine(score, SPLIT.sameDiagnosis);
  if (small) score = combine(score, SPLIT.smallParts);
  const ids = parts.slice(0, 5).map((c) => textOf(batch, at(batch.claimId, c)));
  const cause =
    `${count(parts.length)} ${(BATCH_CLAIM_TYPES[type] ?? "").toLowerCase()} claims of this member at provider ` +
    `${textOf(batch, at(batch.providerId, firstClaim))} on ${isoOfDay(at(batch.claimDate, firstClaim))} ` +
    `(${ids.join(", ")}${parts.length > 5 ? ", ..." : ""}) with ${count(items)} items in all; ` +
    `a typical claim of the batch has ${num(usual)}` +
    (sameDiagnosis
      ? `; same primary diagnosis ${textOf(batch, at(batch.primaryDiagnosis, firstClaim))}`
      : "");
  const finding: Finding = flag(SAME_DAY_SPLIT, "Claims split on one day", cause, score);
  for (const c of parts) sink.claim(c, finding);
}
