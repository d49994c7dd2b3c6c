/**
 * Pass two: run the detectors over the columns, then settle every item and claim.
 * - item: rejected when any finding rejects; else flagged when its score reaches the threshold and one of
 *   its findings is not supporting (Finding.supporting: a long stay or an outlying price alone is no case);
 *   else approved. Its score combines its findings as independent evidence, 1 - prod(1 - s) (a rule's
 *   rejection has score 1, so a rejected item scores 1); an item without findings scores 0. A FLAG finding
 *   does not flag by itself: weak signals add up (two findings of 0.3 make 0.51), a strong one flags alone.
 * - claim: rejected when any item is, else flagged when any item is, else approved.
 * - summary: claims by status; FWA_cases counts claims flagged or rejected by FWA detectors: claims with an
 *   item that a finding marked `fwa` rejects, or whose `fwa` findings alone reach the threshold with one of
 *   them not supporting (a weak FWA signal on an approved item, or one that only tipped a data error's item
 *   over, is no FWA case).
 * - entities: detectors report how anomalous a provider or a member is as a whole (`FindingSink.entity`);
 *   the highest score reported for each entity is kept (providerScore, memberScore by interned id).
 * Findings are kept only for items that have any (a Map by item index); a claim-level finding is one
 * object shared by the claim's items. Deterministic: reasons keep the order the detectors emitted them in.
 * A detector may have run elsewhere (another thread, over the same columns): its report (`reportOf`) is
 * replayed in its place, so the decisions are the same as had it run here.
 */
import {
  type BatchDecisions,
  type ColumnarBatchView,
  type Detector,
  type Finding,
  type FindingSink,
  statusOf,
} from "./types.js";

/** what a detector told its sink, call by call, to be replayed in its place (`analyzeBatch`) */
export interface DetectorReport {
  name: string;
  /** each call in order: an item's finding, a claim's, a provider's score, a member's */
  calls: Uint8Array;
  /** each call's item, claim or entity id */
  indexes: Int32Array;
  /** the finding of each item and claim call, in order (a finding told twice is one object) */
  findings: Finding[];
  /** the score of each entity call, in order */
  scores: Float64Array;
}

const ITEM_CALL = 0;
const CLAIM_CALL = 1;
const PROVIDER_CALL = 2;
const MEMBER_CALL = 3;

/** a detector run over the batch, its sink's calls recorded (nothing checked: the replay checks) */
export function reportOf(batch: ColumnarBatchView, detector: Detector): DetectorReport {
  const calls: number[] = [];
  const indexes: number[] = [];
  const findings: Finding[] = [];
  const scores: number[] = [];
  detector.run(batch, {
    item(itemIndex, finding) {
      calls.push(ITEM_CALL);
      indexes.push(itemIndex);
      findings.push(finding);
    },
    claim(claimIndex, finding) {
      calls.push(CLAIM_CALL);
      indexes.push(claimIndex);
      findings.push(finding);
    },
    entity(kind, id, score) {
      if (kind !== "provider" && kind !== "member")
        throw new RangeError(`detector ${detector.name}: unknown entity kind ${kind}`);
      calls.push(kind === "provider" ? PROVIDER_CALL : MEMBER_CALL);
      indexes.push(id);
      scores.push(score);
    },
  });
  return {
    name: detector.name,
    calls: Uint8Array.from(calls),
    indexes: Int32Array.from(indexes),
    findings,
    scores: Float64Array.from(scores),
  };
}

/** the report's calls told again, in their order */
function replay(report: DetectorReport, sink: FindingSink): void {
  const { calls, indexes, findings, scores } = report;
  let finding = 0;
  let score = 0;
  for (let k = 0; k < calls.length; k += 1) {
    const call = calls[k] as number;
    const index = indexes[k] as number;
    if (call === ITEM_CALL) sink.item(index, findings[finding++] as Finding);
    else if (call === CLAIM_CALL) sink.claim(index, findings[finding++] as Finding);
    else sink.entity(call === PROVIDER_CALL ? "provider" : "member", index, scores[score++] as number);
  }
}

/** a detector to run, or the report of one that ran elsewhere */
export type DetectorRun = Detector | DetectorReport;

export interface AnalyzeOptions {
  /** an item whose combined score reaches this (0 < threshold <= 1) is flagged */
  flagThreshold: number;
}

// the codes of ITEM_STATUSES
const APPROVED = 0;
const FLAGGED = 1;
const REJECTED = 2;

/** a score as the combination reads it: finite and within 0..1 */
const clamp = (score: number): number => (score > 0 ? (score < 1 ? score : 1) : 0);

export function analyzeBatch(
  batch: ColumnarBatchView,
  detectors: readonly DetectorRun[],
  options: AnalyzeOptions,
): BatchDecisions {
  const threshold = options.flagThreshold;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(`flagThreshold must be in (0, 1], got ${threshold}`);
  }
  const { findings: itemFindings, providerScore, memberScore } = collect(batch, detectors);

  const itemStatus = new Uint8Array(batch.itemCount);
  const itemScore = new Float32Array(batch.itemCount);
  const claimRank = new Uint8Array(batch.claimCount);
  const claimFwa = new Uint8Array(batch.claimCount);
  for (const [item, findings] of itemFindings) {
    let keep = 1;
    let keepFwa = 1;
    let rank = APPROVED;
    let fwaReject = false;
    let standsAlone = false;
    let fwaStandsAlone = false;
    for (const finding of findings) {
      const s = clamp(finding.score);
      keep *= 1 - s;
      if (finding.typeDecision === "REJECT") rank = REJECTED;
      if (finding.supporting !== true) standsAlone = true;
      if (finding.fwa) {
        keepFwa *= 1 - s;
        if (finding.typeDecision === "REJECT") fwaReject = true;
        if (finding.supporting !== true) fwaStandsAlone = true;
      }
    }
    const score = 1 - keep;
    if (rank === APPROVED && standsAlone && score >= threshold) rank = FLAGGED;
    const fwa = fwaReject || (fwaStandsAlone && 1 - keepFwa >= threshold);
    itemScore[item] = score;
    itemStatus[item] = rank;
    const claim = batch.itemClaim[item] as number;
    if (rank > (claimRank[claim] as number)) claimRank[claim] = rank;
    if (fwa) claimFwa[claim] = 1;
  }

  const summary = { approved: 0, flagged: 0, rejected: 0, FWA_cases: 0 };
  for (let c = 0; c < batch.claimCount; c += 1) {
    summary[statusOf(claimRank[c])] += 1;
    summary.FWA_cases += claimFwa[c] as number;
  }
  return { itemStatus, itemScore, itemFindings, claimStatus: claimRank, summary, providerScore, memberScore };
}

interface Collected {
  findings: Map<number, Finding[]>;
  providerScore: Map<number, number>;
  memberScore: Map<number, number>;
}

/**
 * every detector's findings by item, and the entity scores (the highest per entity); an index out of range
 * is a detector's bug and fails the analysis
 */
function collect(batch: ColumnarBatchView, detectors: readonly DetectorRun[]): Collected {
  const findings = new Map<number, Finding[]>();
  const providerScore = new Map<number, number>();
  const memberScore = new Map<number, number>();
  let current = "";
  const add = (item: number, finding: Finding): void => {
    const list = findings.get(item);
    if (list === undefined) findings.set(item, [finding]);
    else list.push(finding);
  };
  const sink: FindingSink = {
    item(itemIndex, finding) {
      if (!(itemIndex >= 0 && itemIndex < batch.itemCount && Number.isInteger(itemIndex))) {
        throw new RangeError(`detector ${current}: item index ${itemIndex} out of range`);
      }
      add(itemIndex, finding);
    },
    claim(claimIndex, finding) {
      if (!(claimIndex >= 0 && claimIndex < batch.claimCount && Number.isInteger(claimIndex))) {
        throw new RangeError(`detector ${current}: claim index ${claimIndex} out of range`);
      }
      const end = batch.firstItem[claimIndex + 1] as number;
      for (let i = batch.firstItem[claimIndex] as number; i < end; i += 1) add(i, finding);
    },
    entity(kind, id, score) {
      const scores = kind === "provider" ? providerScore : kind === "member" ? memberScore : undefined;
      if (scores === undefined) throw new RangeError(`detector ${current}: unknown entity kind ${kind}`);
      if (!(id >= 0 && id < batch.strings.length && Number.isInteger(id))) {
        throw new RangeError(`detector ${current}: ${kind} id ${id} out of range`);
      }
      const value = clamp(score);
      const previous = scores.get(id);
      if (previous === undefined || value > previous) scores.set(id, value);
    },
  };
  for (const detector of detectors) {
    current = detector.name;
    if ("run" in detector) detector.run(batch, sink);
    else replay(detector, sink);
  }
  return { findings, providerScore, memberScore };
}
