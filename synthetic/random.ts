/**
 * Random numbers for the generator: everything follows from the seed (mulberry32; no Math.random, no clock).
 * Each part of a batch draws on a stream of its own (mixSeed), so one part never shifts another's draws.
 */
import { seededRandom } from "../src/engine/fwa/stats/random.js";

/** mulberry32: small, fast, and good enough for synthetic data */
export class Rng {
  /** uniform in [0, 1) */
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)] as T;
  }
  /** an index drawn by weights */
  weighted(weights: readonly number[]): number {
    let r = this.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < weights.length; i += 1) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
  /** shuffles `values` in place (Fisher-Yates) */
  shuffle<T>(values: T[]): T[] {
    for (let i = values.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      [values[i], values[j]] = [values[j] as T, values[i] as T];
    }
    return values;
  }
  /** standard normal (Box-Muller), cut at +-2 */
  normal(): number {
    const z = Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
    return Math.max(-2, Math.min(2, z));
  }
}

/**
 * The seed of stream `stream` of a generator seeded `seed` (murmur3 finaliser). Streams: 0 the population,
 * 1 the batch's claims, 2 the hooks, 3 the FWA injection.
 */
export function mixSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** running totals of weights, for drawing by bisection */
export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let total = 0;
  for (const [i, w] of weights.entries()) {
    total += w;
    out[i] = total;
  }
  return out;
}

/** the first index whose cumulative weight exceeds r */
export function bisect(cum: Float64Array, r: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] as number) > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
