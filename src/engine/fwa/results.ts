/**
 * A claim's result in the spec's shape (GET /claims/batch/{batch_id}/results; docs/operator-contract.md section 8).
 * The batch job writes every claim's result in order, as ClaimResultEncoder (result-bytes.ts) encodes this
 * shape: the columns hold every id a result echoes, so the claims are read once.
 */
import { claimIdOf, defaultErpItemId, textOf } from "./columns/columnar.js";
import { textAt } from "./columns/texts.js";
import {
  type BatchDecisions,
  type ColumnarBatchView,
  type Finding,
  type ItemStatus,
  NO_ERP_ITEM_ID,
  statusOf,
} from "./types.js";

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

/** the items of claim `claimIndex`: first, and one past the last */
export function itemRangeOf(
  batch: Pick<ColumnarBatchView, "firstItem">,
  claimIndex: number,
): [number, number] {
  const first = batch.firstItem[claimIndex];
  const end = batch.firstItem[claimIndex + 1];
  if (first === undefined || end === undefined) throw new Error(`the batch has no claim ${claimIndex}`);
  return [first, end];
}

/** an item's erp_item_id: as submitted, else the default from its claim's id and place */
function erpItemIdOf(batch: ColumnarBatchView, claimId: string, first: number, itemIndex: number): string {
  const id = batch.itemErpId[itemIndex] ?? NO_ERP_ITEM_ID;
  return id === NO_ERP_ITEM_ID ? defaultErpItemId(claimId, itemIndex - first) : textAt(batch.erpItemIds, id);
}

/** The result of claim `claimIndex`, from the columns and the decisions alone (its ids are echoed). */
export function claimResult(
  batch: ColumnarBatchView,
  decisions: BatchDecisions,
  claimIndex: number,
  context: ResultContext,
): ClaimResult {
  const [first, end] = itemRangeOf(batch, claimIndex);
  const claimId = claimIdOf(batch, claimIndex);
  const claimItems: ClaimItemResult[] = [];
  for (let itemIndex = first; itemIndex < end; itemIndex += 1) {
    const findings = decisions.itemFindings.get(itemIndex) ?? NO_REASONS;
    claimItems.push({
      erp_claim_item_id: erpItemIdOf(batch, claimId, first, itemIndex),
      status: statusOf(decisions.itemStatus[itemIndex]),
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
    });
  }
  return {
    claim_id: claimId,
    status: statusOf(decisions.claimStatus[claimIndex]),
    erp_claim_id: claimId,
    provider_id: textOf(batch, batch.providerId[claimIndex] as number),
    claim_items: claimItems,
  };
}
