/**
 * Quantity (both modes). A prescription bounds the units: doses a day x days, rounded up. Medication is
 * approved for at most 90 days at a time. A consultation is one visit per item and an optical item at most a
 * pair. Each rule caps the approved quantity; the excess units are rejected at the claimed unit amount.
 */
import { DOSES_PER_DAY, parseDurationDays } from "./dates.js";
import { type CheckResult, type Finding, isType } from "./findings.js";
import { count } from "./format.js";
import { reason } from "./reasons.js";
import type { EngineContext, EngineRequest, RequestItem } from "./types.js";

export const MAX_MEDICATION_DAYS = 90;

export function checkQuantity(request: EngineRequest, _context: EngineContext): CheckResult {
  return { findings: request.items.map(quantityFindings), alerts: [] };
}

function quantityFindings(item: RequestItem): Finding[] {
  const findings: Finding[] = [];
  const quantity = item.quantity;
  const days = parseDurationDays(item.duration);
  const perDay = item.frequency === null ? null : DOSES_PER_DAY[item.frequency];
  const excess = (max: number): string => `${count(quantity - max, "unit")} rejected`;
  if (days !== null && perDay !== null) {
    const max = Math.ceil(perDay * days);
    if (quantity > max) {
      const message = `quantity ${quantity} is more than ${perDay} a day (${item.frequency}) for ${count(days, "day")} = ${count(max, "unit")}; ${excess(max)}`;
      findings.push({ kind: "cap", quantity: max, days: null, reason: reason("MZ-QTY-01", message) });
    }
  }
  if (days !== null && days > MAX_MEDICATION_DAYS && isType(item, "PHARMACEUTICAL")) {
    const worth =
      perDay === null
        ? Math.ceil((quantity * MAX_MEDICATION_DAYS) / days)
        : Math.ceil(perDay * MAX_MEDICATION_DAYS);
    const max = Math.min(quantity, worth);
    const basis = perDay === null ? `${quantity} over ${days} days` : `${perDay} a day`;
    const allowed = `duration ${days} days is above the ${MAX_MEDICATION_DAYS} days allowed for medication`;
    const message =
      max < quantity
        ? `${allowed}: ${MAX_MEDICATION_DAYS} days' worth is ${count(max, "unit")} (${basis}); ${excess(max)}`
        : `${allowed}: approved for ${MAX_MEDICATION_DAYS} days, quantity ${quantity} unchanged`;
    findings.push({
      kind: "cap",
      quantity: max,
      days: MAX_MEDICATION_DAYS,
      reason: reason("MZ-QTY-02", message),
    });
  }
  if (quantity > 1 && isType(item, "CONSULTATION")) {
    const message = `a consultation is one visit per item: quantity ${quantity} cut to 1; ${excess(1)}`;
    findings.push({ kind: "cap", quantity: 1, days: null, reason: reason("MZ-QTY-03", message) });
  }
  if (quantity > 2 && isType(item, "OPTICAL")) {
    const message = `an optical item is at most a pair: quantity ${quantity} cut to 2; ${excess(2)}`;
    findings.push({ kind: "cap", quantity: 2, days: null, reason: reason("MZ-QTY-04", message) });
  }
  return findings;
}
