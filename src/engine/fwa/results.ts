/**
 * A claim's result in the spec's shape (GET /claims/batch/{batch_id}/results; docs/operator-contract.md section 8).
 * The batch service reads the claims back from the spool in order and calls `claimResult` for each with its
 * index (and writes its CSV rows, modules/claims-batch/results.ts); nothing here holds more than one claim.
 */
import type { BatchClaimInput } from "./columns/claim.js";
import type { BatchDecisions, ColumnarBatchView, Finding, ItemStatus } from "./types.js";

export interface ReasonResult {
  /** `${batchId}:${itemIndex}:${n}`, n the 1-based position among the item's reasons: unique in the batch */
  id: string;
  createdAt: string;
  code: string;
  description: string;
  cause: string;
  typeDecision: Finding["typeDecision"];
  source: Finding["source"];
}

export interface ClaimItemResult {
  erp_claim_item_id: string;
  status: ItemStatus;
  /** 0..1, 4 decimals */
  ai_score: number;
  reasons: ReasonResult[];
}

export interface ClaimResult {
  claim_id: string;
  status: ItemStatus;
  erp_claim_id: string;
  /** kept with the stored result so a provider's claims can be found; the API's response leaves it out */
  provider_id: string;
  claim_items: ClaimItemResult[];
}

export interface ResultContext {
  batchId: string;
  /** ISO 8601 time of the analysis: every reason's createdAt */
  analyzedAt: string;
}

const NO_REASONS: readonly Finding[] = [];

export const roundScore = (score: number): number => Math.round(score * 10_000) / 10_000;

/**
 * The result of claim `claimIndex`; `claim` is the same claim as submitted (its ids are echoed). Throws when
 * the claim does not match the columns at that index (a spool read out of step would misplace results).
 */
export function claimResult(
  batch: ColumnarBatchView,
  decisions: BatchDecisions,
  claimIndex: number,
  claim: BatchClaimInput,
  context: ResultContext,
): ClaimResult {
  const first = batch.firstItem[claimIndex];
  const end = batch.firstItem[claimIndex + 1];
  const id = batch.strings[batch.claimId[claimIndex] ?? -1];
  if (first === undefined || end === undefined || id !== claim.claim_id) {
    throw new Error(`claim ${claimIndex} of the batch is ${id ?? "absent"}, not ${claim.claim_id}`);
  }
  if (end - first !== claim.claim_items.length) {
    throw new Error(
      `claim ${claim.claim_id} has ${claim.claim_items.length} items, the batch ${end - first}`,
    );
  }
  const claimItems = claim.claim_items.map((item, n): ClaimItemResult => {
    const itemIndex = first + n;
    const findings = decisions.itemFindings.get(itemIndex) ?? NO_REASONS;
    return {
      erp_claim_item_id: item.erp_item_id ?? `${claim.claim_id}-${n + 1}`,
      status: decisions.itemStatus[itemIndex] ?? "approved",
      ai_score: roundScore(decisions.itemScore[itemIndex] ?? 0),
      reasons: findings.map((finding, k) => ({
        id: `${context.batchId}:${itemIndex}:${k + 1}`,
        createdAt: context.analyzedAt,
        code: finding.code,
        description: finding.description,
        cause: finding.cause,
        typeDecision: finding.typeDecision,
        source: finding.source,
      })),
    };
  });
  return {
    claim_id: claim.claim_id,
    status: decisions.claimStatus[claimIndex] ?? "approved",
    erp_claim_id: claim.claim_id,
    provider_id: claim.provider_id,
    claim_items: claimItems,
  };
}
