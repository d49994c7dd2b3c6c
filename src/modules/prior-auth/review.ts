import { decimalOf, halalasOf } from "../../engine/money.js";
import { isKnownReasonCode } from "../../engine/prior-auth/reasons.js";
import { AppError, refusal } from "../../platform/http/errors.js";
import type { CategoryTemplate } from "../policy-templates/schemas.js";
import type { ItemRow, PriorAuthStatus, StoredDecision } from "./repo.js";
import type { UpdateInput } from "./schemas.js";

type ReviewerStatus = UpdateInput["status"];

/**
 * The transition matrix of the reviewer workflow (README "Workflow", under "Prior authorization"). A
 * reviewer decides a PENDING request; REFERRED may still move to a final status; a final status moves only
 * through a reopen (back to PENDING); CANCELLED is final.
 */
export const REVIEW_TRANSITIONS: Readonly<Record<PriorAuthStatus, readonly ReviewerStatus[]>> = {
  PENDING: ["ACCEPTED", "PARTIALLY_ACCEPTED", "REJECTED", "REFERRED"],
  REFERRED: ["ACCEPTED", "PARTIALLY_ACCEPTED", "REJECTED"],
  ACCEPTED: [],
  PARTIALLY_ACCEPTED: [],
  REJECTED: [],
  CANCELLED: [],
};

/** statuses a reopen takes back to PENDING ("any processed" request) */
export const REOPENABLE: readonly PriorAuthStatus[] = [
  "ACCEPTED",
  "PARTIALLY_ACCEPTED",
  "REJECTED",
  "REFERRED",
];

export function requireTransition(from: PriorAuthStatus, to: ReviewerStatus): void {
  if (!REVIEW_TRANSITIONS[from].includes(to))
    throw new AppError("E_EPA_15", `Status transition from ${from} to ${to} is not allowed`);
}

function decisionOf(row: ItemRow): StoredDecision {
  const {
    id: _id,
    service_code: _code,
    erp_item_id: _erp,
    claimed_quantity: _quantity,
    claimed_amount: _amount,
    item: _item,
    benefit_code: _benefit,
    sub_benefit_code: _sub,
    ...decision
  } = row;
  return { ...decision, ai_score: Number(row.ai_score) };
}

/** approves `quantity` units for `amount` halalas; request = approved + price rejected + rejected stays exact */
function accepted(
  row: ItemRow,
  quantity: number,
  amount: number,
  reasons: StoredDecision["reviewer_reasons"],
): StoredDecision {
  const request = halalasOf(row.request_amount);
  const priceRejected = Math.min(halalasOf(row.price_rejected_amount), request - amount);
  return {
    ...decisionOf(row),
    outcome:
      amount < request - priceRejected || quantity < row.claimed_quantity ? "PARTIALLY_APPROVED" : "APPROVED",
    approved: true,
    approved_quantity: quantity,
    approved_amount: decimalOf(amount),
    price_rejected_amount: decimalOf(priceRejected),
    rejected_amount: decimalOf(request - amount - priceRejected),
    held_amount: "0.00",
    net_payable: decimalOf(amount),
    reviewer_status: "ACCEPTED",
    reviewer_reasons: reasons,
  };
}

function rejected(row: ItemRow, reasons: StoredDecision["reviewer_reasons"]): StoredDecision {
  return {
    ...decisionOf(row),
    outcome: "REJECTED",
    approved: false,
    approved_quantity: 0,
    approved_amount: "0.00",
    price_rejected_amount: "0.00",
    rejected_amount: row.request_amount,
    held_amount: "0.00",
    net_payable: "0.00",
    reviewer_status: "REJECTED",
    reviewer_reasons: reasons,
  };
}

/**
 * The items' decisions after a reviewer's update. Items the update names take the reviewer's word; the
 * others: all rejected when the request is REJECTED; held ones (PENDING_REVIEW) approved at what the rules
 * proposed when it is ACCEPTED or PARTIALLY_ACCEPTED; unchanged otherwise. In standard mode an item can
 * be accepted only when its benefit (E_EPA_12) and sub-benefit (E_EPA_13) exist in the member's category.
 */
export function reviewedDecisions(
  rows: readonly ItemRow[],
  input: UpdateInput,
  category: CategoryTemplate | undefined | "not-checked",
): StoredDecision[] {
  const byErpId = new Map(
    rows.flatMap((row) => (row.erp_item_id === null ? [] : [[row.erp_item_id, row] as const])),
  );
  const given = new Map<number, StoredDecision>();
  const problems: string[] = [];
  for (const [index, item] of (input.items ?? []).entries()) {
    const row = byErpId.get(item.erp_item_id);
    if (row === undefined) throw new AppError("E_EPA_11", `Item ${item.erp_item_id} not found`);
    const unknown = (item.reasons ?? []).find((reason) => !isKnownReasonCode(reason.code));
    if (unknown !== undefined) throw new AppError("E_EPA_14", `Rejection reason ${unknown.code} not found`);
    const reasons = (item.reasons ?? []).map((reason) => ({
      code: reason.code,
      message: reason.message ?? null,
    }));
    if (item.status === "REJECTED") {
      given.set(row.item_index, rejected(row, reasons));
      continue;
    }
    if (category !== "not-checked" && row.benefit_code !== null) {
      const benefit = category?.benefits.find((b) => b.benefit_code === row.benefit_code);
      if (benefit === undefined)
        throw new AppError("E_EPA_12", `Benefit ${row.benefit_code} of item ${item.erp_item_id} not found`);
      if (
        row.sub_benefit_code !== null &&
        !benefit.sub_benefits.some((s) => s.sub_benefit_code === row.sub_benefit_code)
      )
        throw new AppError(
          "E_EPA_13",
          `Sub-benefit ${row.sub_benefit_code} of item ${item.erp_item_id} not found`,
        );
    }
    const quantity = item.approved_quantity ?? (row.approved_quantity || row.claimed_quantity);
    const request = halalasOf(row.request_amount);
    const amount =
      item.approved_amount === undefined
        ? Math.min(request, quantity * halalasOf(row.unit_price))
        : halalasOf(item.approved_amount);
    if (quantity > row.claimed_quantity)
      problems.push(
        `items[${index}].approved_quantity must not exceed the claimed quantity ${row.claimed_quantity}`,
      );
    if (amount > request)
      problems.push(
        `items[${index}].approved_amount must not exceed the request amount ${decimalOf(request)}`,
      );
    given.set(row.item_index, accepted(row, quantity, amount, reasons));
  }
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
  return rows.map((row) => {
    const decided = given.get(row.item_index);
    if (decided !== undefined) return decided;
    if (input.status === "REJECTED") return rejected(row, null);
    if (
      row.outcome === "PENDING_REVIEW" &&
      (input.status === "ACCEPTED" || input.status === "PARTIALLY_ACCEPTED")
    ) {
      // the rules' quantity is not stored for a held item: the held amount at the unit price says it
      const held = halalasOf(row.held_amount);
      const unit = halalasOf(row.unit_price);
      const quantity =
        unit > 0 ? Math.min(row.claimed_quantity, Math.ceil(held / unit)) : row.claimed_quantity;
      return accepted(row, quantity, held, null);
    }
    return decisionOf(row);
  });
}
