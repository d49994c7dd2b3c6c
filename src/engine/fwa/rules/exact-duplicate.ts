/**
 * Exact duplicates. Two items are identical when their claims have the same member, provider and claim date,
 * and the items the same service code, quantity and unit amount. The first occurrence in batch order is the
 * original; every later one is rejected:
 * - NDC069 "Claim is a duplicate based on service codes and dates" when the original is in an earlier claim
 *   (citing that claim's id and the item's position in it);
 * - NDC081 "Authorization request/Claim is a duplicate based on service codes and dates" when the original
 *   is an earlier item of the same claim.
 * An item that repeats an earlier claim's item gets NDC069 only, even when its own claim repeats it too.
 * Billing the same service twice is the textbook FWA pattern: these findings count as FWA cases.
 *
 * One pass over the items with an open-addressing hash table of item indexes (Int32Array, at least twice
 * the item count, a power of two): no strings, no per-item objects, 8 MB for a million items.
 */
import { decimalOf } from "../../money.js";
import { at, claimIdOf, textOf } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { reject } from "../findings.js";
import type { ColumnarBatchView, Detector, FindingSink } from "../types.js";

/** the original is in an earlier claim */
export const EXACT_DUPLICATE_CLAIM_CODE = "NDC069";
/** the original is an earlier item of the same claim */
export const EXACT_DUPLICATE_ITEM_CODE = "NDC081";

/** a 32-bit mix step (murmur3's) */
function mix(hash: number, value: number): number {
  let k = Math.imul(value | 0, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  const h = hash ^ k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

function finalMix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** a whole number that may exceed 32 bits (quantity, halalas), folded into the hash */
const mixWide = (hash: number, value: number): number =>
  mix(mix(hash, value), Math.floor(value / 4_294_967_296));

export const exactDuplicateRule: Detector = {
  name: "exact-duplicate",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    const { memberId, providerId, claimDate, firstItem, itemClaim, serviceCode, quantity, unitAmount } =
      batch;
    let size = 16;
    while (size < batch.itemCount * 2) size *= 2;
    const mask = size - 1;
    /** item index + 1, 0 when empty */
    const table = new Int32Array(size);
    for (let c = 0; c < batch.claimCount; c += 1) {
      const member = at(memberId, c);
      const provider = at(providerId, c);
      const day = at(claimDate, c);
      const claimHash = mix(mix(mix(0x5bd1e995, member), provider), day);
      const end = at(firstItem, c + 1);
      for (let i = at(firstItem, c); i < end; i += 1) {
        const service = at(serviceCode, i);
        const count = at(quantity, i);
        const amount = at(unitAmount, i);
        let slot = finalMix(mixWide(mixWide(mix(claimHash, service), count), amount)) & mask;
        for (;;) {
          const entry = at(table, slot);
          if (entry === 0) {
            table[slot] = i + 1;
            break;
          }
          const j = entry - 1;
          const cj = at(itemClaim, j);
          if (
            at(serviceCode, j) === service &&
            at(quantity, j) === count &&
            at(unitAmount, j) === amount &&
            at(memberId, cj) === member &&
            at(providerId, cj) === provider &&
            at(claimDate, cj) === day
          ) {
            report(batch, sink, i, j);
            break;
          }
          slot = (slot + 1) & mask;
        }
      }
    }
  },
};

function report(batch: ColumnarBatchView, sink: FindingSink, item: number, original: number): void {
  const claim = at(batch.itemClaim, item);
  const originalClaim = at(batch.itemClaim, original);
  const position = original - at(batch.firstItem, originalClaim) + 1;
  const what =
    `service ${textOf(batch, at(batch.serviceCode, item))}, quantity ${at(batch.quantity, item)} ` +
    `and unit amount ${decimalOf(at(batch.unitAmount, item))}`;
  if (originalClaim !== claim) {
    const cause =
      `same member, provider, claim date ${isoOfDay(at(batch.claimDate, claim))}, ${what} as item ${position} ` +
      `of the earlier claim ${claimIdOf(batch, originalClaim)}`;
    sink.item(item, reject(EXACT_DUPLICATE_CLAIM_CODE, "Duplicate of an earlier claim", cause, true));
  } else {
    const cause = `repeats item ${position} of this claim: same ${what}`;
    sink.item(item, reject(EXACT_DUPLICATE_ITEM_CODE, "Duplicate item within the claim", cause, true));
  }
}
