/**
 * Pass two: run the detectors over the columns, then settle every item and claim.
 * - item: rejected when any finding rejects; else flagged when any finding flags or its score reaches the
 *   threshold; else approved. Its score combines its findings as independent evidence, 1 - prod(1 - s)
 *   (a rule's rejection has score 1, so a rejected item scores 1); an item without findings scores 0.
 * - claim: rejected when any item is, else flagged when any item is, else approved.
 * - summary: claims by status; FWA_cases counts claims with any finding marked `fwa`.
 * Findings are kept only for items that have any (a Map by item index); a claim-level finding is one
 * object shared by the claim's items. Deterministic: reasons keep the order the detectors emitted them in.
 */
import type {
  BatchDecisions,
  ColumnarBatchView,
  Detector,
  Finding,
  FindingSink,
  ItemStatus,
} from "./types.js";

export interface AnalyzeOptions {
  /** an item whose combined score reaches this (0 < threshold <= 1) is flagged */
  flagThreshold: number;
}

const STATUS: readonly ItemStatus[] = ["approved", "flagged", "rejected"];
const APPROVED = 0;
const FLAGGED = 1;
const REJECTED = 2;

/** a score as the combination reads it: finite and within 0..1 */
const clamp = (score: number): number => (score > 0 ? (score < 1 ? score : 1) : 0);

export function analyzeBatch(
  batch: ColumnarBatchView,
  detectors: readonly Detector[],
  options: AnalyzeOptions,
): BatchDecisions {
  const threshold = options.flagThreshold;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(`flagThreshold must be in (0, 1], got ${threshold}`);
  }
  const itemFindings = collect(batch, detectors);

  const itemStatus: ItemStatus[] = new Array<ItemStatus>(batch.itemCount).fill("approved");
  const itemScore = new Float32Array(batch.itemCount);
  const claimRank = new Uint8Array(batch.claimCount);
  const claimFwa = new Uint8Array(batch.claimCount);
  for (const [item, findings] of itemFindings) {
    let keep = 1;
    let rank = APPROVED;
    let fwa = false;
    for (const finding of findings) {
      keep *= 1 - clamp(finding.score);
      if (finding.typeDecision === "REJECT") rank = REJECTED;
      else if (rank === APPROVED) rank = FLAGGED;
      if (finding.fwa) fwa = true;
    }
    const score = 1 - keep;
    if (rank === APPROVED && score >= threshold) rank = FLAGGED;
    itemScore[item] = score;
    itemStatus[item] = STATUS[rank] as ItemStatus;
    const claim = batch.itemClaim[item] as number;
    if (rank > (claimRank[claim] as number)) claimRank[claim] = rank;
    if (fwa) claimFwa[claim] = 1;
  }

  const claimStatus: ItemStatus[] = new Array<ItemStatus>(batch.claimCount);
  const summary = { approved: 0, flagged: 0, rejected: 0, FWA_cases: 0 };
  for (let c = 0; c < batch.claimCount; c += 1) {
    const status = STATUS[claimRank[c] as number] as ItemStatus;
    claimStatus[c] = status;
    summary[status] += 1;
    summary.FWA_cases += claimFwa[c] as number;
  }
  return { itemStatus, itemScore, itemFindings, claimStatus, summary };
}

/** every detector's findings by item; an index out of range is a detector's bug and fails the analysis */
function collect(batch: ColumnarBatchView, detectors: readonly Detector[]): Map<number, Finding[]> {
  const findings = new Map<number, Finding[]>();
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
  };
  for (const detector of detectors) {
    current = detector.name;
    detector.run(batch, sink);
  }
  return findings;
}
