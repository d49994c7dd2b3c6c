/**
 * Provider profiles (docs/architecture.md section 5): an unsupervised model over per-provider features, an
 * isolation forest (model/isolation-forest.ts), deterministic (seeded, fixed trees and sample size; providers
 * in the order of their id texts, so a batch's claim order does not change the scores).
 *
 * Features of each provider with at least PROVIDER.minClaims claims:
 * - claims per member (repeat billing of the same patients);
 * - items per claim (unbundling);
 * - amount per item against peers: the mean over its items of ln(line amount / the batch's median line amount
 *   of the same service code), so the mix of services does not dominate (shown as a ratio);
 * - emergency share: claims marked emergency or of sub-type EMERGENCY;
 * - high-cost share: items whose line amount is in the batch's top 10%;
 * - diagnosis concentration: the chance that two of its claims have the same primary diagnosis (Simpson's
 *   index, unbiased for any volume; shown as diversity, one minus it);
 * - volume: ln(claims).
 * Ratios and shares are shrunk towards the peers' median by PROVIDER.priorClaims pseudo-claims (a provider
 * with 12 claims does not stand out by chance). Peers are the providers of the same provider type (a pharmacy
 * is not a hospital) when there are PROVIDER.minPeers of them, else all. Each feature becomes a robust z
 * against the peers, clipped below at PROVIDER.clipBelow: only the suspicious direction matters (cheap or
 * quiet providers are no anomaly). The forest scores the standardized rows; a provider's forest score becomes
 * a robust z among the batch's providers, then a score by PROVIDER.curve, times a gate that opens as its
 * strongest feature other than volume stands out (PROVIDER.gate*): a large provider that is otherwise
 * ordinary does not score. Every modelled provider's score goes to `sink.entity("provider", ...)` (normal
 * ones near 0); a provider scoring at least PROVIDER.itemMinScore flags every item with that score, the cause
 * naming the features that stand out, with their values against the peers' typical values.
 */
import { BATCH_PROVIDER_TYPES } from "../columns/claim.js";
import { CLAIM_SUB_TYPE, textOf } from "../columns/columnar.js";
import { flag } from "../findings.js";
import { isolationScores } from "../model/isolation-forest.js";
import { PROVIDER } from "../sensitivity.js";
import { claimsByProvider, lineLogs, serviceLineMedian } from "../stats/batch.js";
import { count, money, num, percent, times } from "../stats/format.js";
import { quantileSorted, type RobustFit, robustFit, robustZ, scoreOf } from "../stats/robust.js";
import type { ColumnarBatchView, Detector } from "../types.js";

export const PROVIDER_PROFILE_CODE = "FWA-PROV-01";

const EMERGENCY = CLAIM_SUB_TYPE.EMERGENCY;

interface Feature {
  name: string;
  /** least robust scale, in the feature's units */
  floor: number;
  /** shrunk towards the peers' median with the provider's claims as weight */
  shrink: boolean;
  /** the provider's value against the typical one, for causes */
  show(value: number, typical: number): string;
}

const PROVIDER_FEATURES: readonly Feature[] = [
  {
    name: "claims per member",
    floor: PROVIDER.floors.claimsPerMember,
    shrink: true,
    show: (v, t) => `claims per member ${num(v)} (typical ${num(t)})`,
  },
  {
    name: "items per claim",
    floor: PROVIDER.floors.itemsPerClaim,
    shrink: true,
    show: (v, t) => `items per claim ${num(v)} (typical ${num(t)})`,
  },
  {
    name: "amount per item",
    floor: PROVIDER.floors.amountPerItem,
    shrink: true,
    show: (v, t) =>
      `amounts ${times(Math.exp(v))} times their services' medians (typical ${times(Math.exp(t))})`,
  },
  {
    name: "emergency share",
    floor: PROVIDER.floors.emergencyShare,
    shrink: true,
    show: (v, t) => `emergency claims ${percent(v)} (typical ${percent(t)})`,
  },
  {
    name: "high-cost share",
    floor: PROVIDER.floors.highCostShare,
    shrink: true,
    show: (v, t) => `high-cost items ${percent(v)} (typical ${percent(t)})`,
  },
  {
    name: "diagnosis concentration",
    floor: PROVIDER.floors.diagnosisConcentration,
    shrink: true,
    show: (v, t) => `diagnosis diversity ${num(1 - v)} (typical ${num(1 - t)})`,
  },
  {
    name: "volume",
    floor: PROVIDER.floors.volume,
    shrink: false,
    show: (v, t) => `volume ${count(Math.exp(v))} claims (typical ${count(Math.exp(t))})`,
  },
];
const D = PROVIDER_FEATURES.length;
const VOLUME = D - 1;
const HIGH_COST = 4;

/** the batch's PROVIDER.highCostQuantile of ln(line amount), from up to 200,000 evenly spaced items */
function highCostLine(batch: ColumnarBatchView): number {
  const step = Math.max(1, Math.floor(batch.itemCount / 200_000));
  const sample = new Float64Array(Math.ceil(batch.itemCount / step));
  const logs = lineLogs(batch);
  let n = 0;
  for (let i = 0; i < batch.itemCount; i += step) {
    const ln = logs[i] as number;
    if (!Number.isNaN(ln)) sample[n++] = ln;
  }
  if (n === 0) return Number.POSITIVE_INFINITY;
  const sorted = sample.subarray(0, n).sort();
  return quantileSorted(sorted, 0, n, PROVIDER.highCostQuantile);
}

export const providerProfileDetector: Detector = {
  name: "provider-profile",
  run(batch, sink) {
    const { start, order } = claimsByProvider(batch);
    const lineMedian = serviceLineMedian(batch);
    const highLine = highCostLine(batch);
    const logs = lineLogs(batch);
    const ids: number[] = [];
    for (let p = 0; p < start.length - 1; p += 1) {
      if ((start[p + 1] as number) - (start[p] as number) >= PROVIDER.minClaims) ids.push(p);
    }
    if (ids.length < PROVIDER.minPeers) return;
    ids.sort((a, b) => {
      const x = textOf(batch, a);
      const y = textOf(batch, b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const n = ids.length;
    const raw = new Float64Array(n * D);
    const weight = new Float64Array(n);
    const type = new Int32Array(n);
    const seenMember = new Int32Array(batch.strings.length).fill(-1);
    const diagnoses = new Int32Array(batch.claimCount);
    for (let k = 0; k < n; k += 1) {
      const p = ids[k] as number;
      const from = start[p] as number;
      const to = start[p + 1] as number;
      const claims = to - from;
      let members = 0;
      let items = 0;
      let priced = 0;
      let priceSum = 0;
      let emergency = 0;
      let highCost = 0;
      for (let r = from; r < to; r += 1) {
        const c = order[r] as number;
        const member = batch.memberId[c] as number;
        if (seenMember[member] !== p) {
          seenMember[member] = p;
          members += 1;
        }
        if (batch.isEmergency[c] === 1 || batch.claimSubType[c] === EMERGENCY) emergency += 1;
        diagnoses[r] = batch.primaryDiagnosis[c] as number;
        const end = batch.firstItem[c + 1] as number;
        for (let i = batch.firstItem[c] as number; i < end; i += 1) {
          items += 1;
          const ln = logs[i] as number;
          if (Number.isNaN(ln)) continue;
          if (ln >= highLine) highCost += 1;
          const median = lineMedian[batch.serviceCode[i] as number] as number;
          if (Number.isFinite(median)) {
            priceSum += ln - median;
            priced += 1;
          }
        }
      }
      // Simpson: sum over diagnoses of c (c - 1), over n (n - 1)
      const dx = diagnoses.subarray(from, to).sort();
      let same = 0;
      let run = 1;
      for (let r = 1; r <= dx.length; r += 1) {
        if (r < dx.length && dx[r] === dx[r - 1]) run += 1;
        else {
          same += run * (run - 1);
          run = 1;
        }
      }
      const row = k * D;
      raw[row] = claims / members;
      raw[row + 1] = items / claims;
      raw[row + 2] = priced > 0 ? priceSum / priced : 0;
      raw[row + 3] = emergency / claims;
      raw[row + 4] = items > 0 ? highCost / items : 0;
      raw[row + 5] = claims > 1 ? same / (claims * (claims - 1)) : 1;
      raw[row + VOLUME] = Math.log(claims);
      weight[k] = claims;
      type[k] = batch.providerType[order[from] as number] as number;
    }

    // peers: the same provider type when there are enough, else all
    const byType = new Map<number, number[]>();
    for (let k = 0; k < n; k += 1) {
      const t = type[k] as number;
      const list = byType.get(t);
      if (list === undefined) byType.set(t, [k]);
      else list.push(k);
    }
    const everyone = Array.from({ length: n }, (_, k) => k);
    const peersOf = (k: number): number[] => {
      const list = byType.get(type[k] as number) as number[];
      return list.length >= PROVIDER.minPeers ? list : everyone;
    };
    const fitCache = new Map<number[], { median: Float64Array; fits: RobustFit[] }>();
    const column = new Float64Array(n);
    const peerStats = (peers: number[]): { median: Float64Array; fits: RobustFit[] } => {
      let stats = fitCache.get(peers);
      if (stats !== undefined) return stats;
      const median = new Float64Array(D);
      const fits: RobustFit[] = [];
      for (let f = 0; f < D; f += 1) {
        // the raw median first, then the shrunk values' fit
        const values = column.subarray(0, peers.length);
        peers.forEach((k, r) => {
          values[r] = raw[k * D + f] as number;
        });
        values.sort();
        const m = quantileSorted(values, 0, peers.length, 0.5);
        median[f] = m;
        const feature = PROVIDER_FEATURES[f] as Feature;
        peers.forEach((k, r) => {
          values[r] = shrunk(raw[k * D + f] as number, weight[k] as number, m, feature.shrink);
        });
        values.sort();
        fits.push(robustFit(values, 0, peers.length, feature.floor));
      }
      stats = { median, fits };
      fitCache.set(peers, stats);
      return stats;
    };

    const z = new Float64Array(n * D);
    const rows = new Float64Array(n * D);
    for (let k = 0; k < n; k += 1) {
      const { median, fits } = peerStats(peersOf(k));
      for (let f = 0; f < D; f += 1) {
        const feature = PROVIDER_FEATURES[f] as Feature;
        const v = shrunk(raw[k * D + f] as number, weight[k] as number, median[f] as number, feature.shrink);
        const fit = fits[f] as RobustFit;
        const zf = robustZ(v, fit);
        z[k * D + f] = zf;
        rows[k * D + f] = Math.min(50, Math.max(PROVIDER.clipBelow, zf));
      }
    }

    const forest = isolationScores(rows, n, D, PROVIDER);
    const sortedScores = forest.slice().sort();
    const forestFit = robustFit(sortedScores, 0, n, PROVIDER.forestScaleFloor);
    for (let k = 0; k < n; k += 1) {
      let strongest = Number.NEGATIVE_INFINITY;
      for (let f = 0; f < D; f += 1) {
        if (f !== VOLUME) strongest = Math.max(strongest, z[k * D + f] as number);
      }
      const zForest = robustZ(forest[k] as number, forestFit);
      const score = scoreOf(zForest, PROVIDER.curve) * scoreOf(strongest, PROVIDER.gate);
      const p = ids[k] as number;
      sink.entity("provider", p, score);
      if (score < PROVIDER.itemMinScore) continue;
      const peers = peersOf(k);
      const { median } = peerStats(peers);
      const standing: { f: number; z: number }[] = [];
      for (let f = 0; f < D; f += 1) {
        const zf = z[k * D + f] as number;
        if (zf >= PROVIDER.featureZ) standing.push({ f, z: zf });
      }
      standing.sort((a, b) => b.z - a.z);
      // the provider's own values (the z-scores are of the shrunk ones) against the peers' medians
      const facts = standing.slice(0, 4).map(({ f, z: zf }) => {
        const feature = PROVIDER_FEATURES[f] as Feature;
        return `${feature.show(raw[k * D + f] as number, median[f] as number)}, robust z ${num(zf, 1)}`;
      });
      const kind =
        peers === everyone
          ? "providers"
          : `${BATCH_PROVIDER_TYPES[type[k] as number]?.toLowerCase() ?? "other"} providers`;
      const cause =
        `provider ${textOf(batch, p)} stands out among the batch's ${count(peers.length)} ${kind}: ` +
        `${facts.join("; ")}; isolation forest anomaly ${num(forest[k] as number)} ` +
        `(batch typical ${num(forestFit.median)}, robust z ${num(zForest, 1)})` +
        (standing.some(({ f }) => f === HIGH_COST)
          ? `; high-cost items are lines of ${money(Math.round(Math.exp(highLine)))} or more`
          : "");
      const finding = flag(PROVIDER_PROFILE_CODE, "Provider profile unlike its peers", cause, score);
      const from = start[p] as number;
      const to = start[p + 1] as number;
      for (let r = from; r < to; r += 1) sink.claim(order[r] as number, finding);
    }
  },
};

function shrunk(value: number, claims: number, typical: number, shrink: boolean): number {
  if (!shrink) return value;
  return (value * claims + typical * PROVIDER.priorClaims) / (claims + PROVIDER.priorClaims);
}
