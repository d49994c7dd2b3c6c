/**
 * The amounts of one item, exact in halalas. Excess units are rejected at the claimed unit amount, the
 * contract takes its difference off the approved units, and a limit moves what it cannot cover to rejected,
 * so that request = approved + price rejected + rejected (+ held, set in decide) always.
 */
import { DOSES_PER_DAY, parseDurationDays } from "./dates.js";
import type { Finding } from "./findings.js";
import type { LimitFinding } from "./limits.js";
import { applyContractPrice } from "./pricing.js";
import type { ContractPrice, Reason, RequestItem } from "./types.js";

export interface Draft {
  item: RequestItem;
  /** reasons that reject the item (none when some of it is approved) */
  rejects: Reason[];
  /** reasons that cut its quantity, duration or amount */
  cuts: Reason[];
  approvedQuantity: number;
  approvedDays: number | null;
  unitPrice: number;
  requestAmount: number;
  approvedAmount: number;
  priceRejectedAmount: number;
  rejectedAmount: number;
}

export function draft(
  item: RequestItem,
  findings: readonly Finding[],
  price: ContractPrice | undefined,
): Draft {
  const requestAmount = item.quantity * item.unitAmount;
  const days = parseDurationDays(item.duration);
  const rejects: Reason[] = [];
  const cuts: Reason[] = [];
  let approvedQuantity = item.quantity;
  let approvedDays = days;
  for (const finding of findings) {
    if (finding.kind === "reject") rejects.push(finding.reason);
    else {
      cuts.push(finding.reason);
      approvedQuantity = Math.min(approvedQuantity, finding.quantity);
      if (finding.days !== null && approvedDays !== null) approvedDays = Math.min(approvedDays, finding.days);
    }
  }
  const priced = applyContractPrice(item, rejects.length > 0 ? 0 : approvedQuantity, price);
  if (rejects.length > 0)
    return rejected({ item, rejects, unitPrice: priced.unitPrice, requestAmount, approvedDays });
  const perDay = item.frequency === null ? null : DOSES_PER_DAY[item.frequency];
  if (approvedQuantity < item.quantity && approvedDays !== null && perDay !== null) {
    approvedDays = Math.min(approvedDays, Math.ceil(approvedQuantity / perDay));
  }
  if (priced.reason !== null) cuts.push(priced.reason);
  return {
    item,
    rejects,
    cuts,
    approvedQuantity,
    approvedDays,
    unitPrice: priced.unitPrice,
    requestAmount,
    approvedAmount: approvedQuantity * priced.unitPrice,
    priceRejectedAmount: priced.priceRejectedAmount,
    rejectedAmount: (item.quantity - approvedQuantity) * item.unitAmount,
  };
}

/** the draft after the limit check: unchanged, rejected, or its approved amount cut */
export function applyLimit(d: Draft, limit: LimitFinding): Draft {
  if (limit === null) return d;
  if (limit.kind === "reject") return rejected({ ...d, rejects: [...d.rejects, limit.reason] });
  const cut = d.approvedAmount - limit.amount;
  return {
    ...d,
    cuts: [...d.cuts, limit.reason],
    approvedAmount: limit.amount,
    rejectedAmount: d.rejectedAmount + cut,
  };
}

type Basis = Pick<Draft, "item" | "rejects" | "unitPrice" | "requestAmount" | "approvedDays">;

/** nothing approved: every halala rejected, and the cuts no longer matter */
function rejected(d: Basis): Draft {
  return {
    item: d.item,
    rejects: d.rejects,
    cuts: [],
    approvedQuantity: 0,
    approvedDays: d.approvedDays === null ? null : 0,
    unitPrice: d.unitPrice,
    requestAmount: d.requestAmount,
    approvedAmount: 0,
    priceRejectedAmount: 0,
    rejectedAmount: d.requestAmount,
  };
}
