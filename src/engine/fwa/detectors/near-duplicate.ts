/**
 * Near-duplicates (FWA-DUP-01; docs/architecture.md section 5). Two claims of the same member at DIFFERENT
 * providers at most NEAR_DUPLICATE.windowDays apart that bill the same services (exact duplicates, same
 * provider and day, are rejected by a rule). How surprising a shared service is depends on how common it is:
 * an office visit on 40% of the batch's claims is shared by chance all the time, a scan on 1% rarely. So a
 * pair's evidence is the sum over its shared services of -log10(share of claims carrying the service) (each
 * capped), weighed by how much of the claims is shared (a whole claim copied, or one item in common between
 * otherwise different claims), less log10 of how many of the member's claims were near (more chances, less
 * surprise), plus bonuses for the same primary diagnosis, the same quantities and prices (more when identical
 * to the halala) and the same day; its score follows NEAR_DUPLICATE.curve. A copy of a whole claim scores
 * high even for common services; a second office visit for a cold, low. Either claim may be the copy, so the
 * shared items of both are flagged, each naming the other claim; an item in several pairs keeps its
 * strongest. The member's claims are read in date order (stats/batch.ts, claimsByMember).
 */
import { at, claimIdOf, textOf } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { flag } from "../findings.js";
import { NEAR_DUPLICATE } from "../sensitivity.js";
import { claimsByMember, serviceClaimShare } from "../stats/batch.js";
import { count } from "../stats/format.js";
import { scoreOf } from "../stats/robust.js";
import type { Detector } from "../types.js";

export const NEAR_DUPLICATE_CODE = "FWA-DUP-01";

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

export const nearDuplicateDetector: Detector = {
  name: "near-duplicate",
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
        `${textOf(batch, at(batch.providerId, other))} in claim ${claimIdOf(batch, other)} ` +
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
