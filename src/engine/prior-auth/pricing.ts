/**
 * Pricing. A claimed unit amount above the provider's contract price is approved at the contract price and
 * the difference on the approved units is price-rejected (the provider agreed to the lower price). In standard
 * mode a service without a contract price is rejected; lightweight tenants load no price lists, so there only
 * the prices that exist are applied and nothing is rejected for lack of one.
 */
import { isoDay } from "./dates.js";
import { type CheckResult, type Finding, noFindings } from "./findings.js";
import { count, sar } from "./format.js";
import { reason } from "./reasons.js";
import type { ContractPrice, EngineContext, EngineRequest, Reason, RequestItem } from "./types.js";

export function checkContractPrices(request: EngineRequest, context: EngineContext): CheckResult {
  if (context.mode !== "standard") return { findings: noFindings(request.items), alerts: [] };
  const day = isoDay(request.treatmentDate);
  const findings = request.items.map((item, i): Finding[] => {
    if (context.prices[i] !== undefined) return [];
    const message = `no contract price for service ${item.serviceCode} at provider ${request.providerCchiNo} on ${day}`;
    return [{ kind: "reject", reason: reason("MZ-PRICE-02", message) }];
  });
  return { findings, alerts: [] };
}

export interface Priced {
  unitPrice: number;
  priceRejectedAmount: number;
  reason: Reason | null;
}

/** the unit price the approved units are paid at, and what the contract takes off them */
export function applyContractPrice(
  item: RequestItem,
  approvedQuantity: number,
  price: ContractPrice | undefined,
): Priced {
  if (price === undefined || price.unitPrice >= item.unitAmount) {
    return { unitPrice: item.unitAmount, priceRejectedAmount: 0, reason: null };
  }
  const difference = item.unitAmount - price.unitPrice;
  const priceRejectedAmount = difference * approvedQuantity;
  if (approvedQuantity === 0) return { unitPrice: price.unitPrice, priceRejectedAmount, reason: null };
  const message =
    `unit price ${sar(item.unitAmount)} is above the contract price ${sar(price.unitPrice)} ` +
    `(price list ${price.priceListErpId}, item ${price.priceItemErpId}): ` +
    `${sar(difference)} x ${count(approvedQuantity, "unit")} = ${sar(priceRejectedAmount)} not payable`;
  return { unitPrice: price.unitPrice, priceRejectedAmount, reason: reason("MZ-PRICE-01", message) };
}
