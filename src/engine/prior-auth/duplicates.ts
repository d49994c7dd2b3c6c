/**
 * Duplicates (both modes). The same service twice in one request is billed once: later copies are rejected.
 * A service approved for the member within the duplicate window is not approved again, except medication
 * (refills are normal; the quantity rules bound them) and consultations, which have their own rule: another
 * consultation with the same provider within the free follow-up period is part of the first one's fee.
 */
import { daysBetween, isoDay } from "./dates.js";
import { type CheckResult, type Finding, isType, position } from "./findings.js";
import { count } from "./format.js";
import { reason } from "./reasons.js";
import type { EngineContext, EngineRequest, HistoryItem, Reason, RequestItem } from "./types.js";

function billedUnder(request: EngineRequest, item: HistoryItem): boolean {
  return (
    request.transactionType === "CLAIM" &&
    item.authorization?.transactionType === "PREAUTH" &&
    item.authorization.number === request.authorizationNumber
  );
}

export function checkDuplicates(request: EngineRequest, context: EngineContext): CheckResult {
  const { duplicateWindowDays, followUpDays } = context.settings;
  // only approved history before (or on) the treatment date counts, newest first; a claim is not a
  // duplicate of the prior authorization it is billed under
  const past = context.history
    .filter((h) => h.approved && daysBetween(h.date, request.treatmentDate) >= 0 && !billedUnder(request, h))
    .sort((a, b) => b.date.getTime() - a.date.getTime());
  const byService = new Map<string, HistoryItem[]>();
  for (const h of past) {
    const list = byService.get(h.serviceCode);
    if (list === undefined) byService.set(h.serviceCode, [h]);
    else list.push(h);
  }
  const consultations = past.filter(
    (h) => h.serviceType === "CONSULTATION" && h.providerCchiNo === request.providerCchiNo,
  );

  const first = new Map<string, RequestItem>();
  const findings = request.items.map((item): Finding[] => {
    const reasons: Reason[] = [];
    const earlier = first.get(item.serviceCode);
    if (earlier === undefined) first.set(item.serviceCode, item);
    else {
      const message = `service ${item.serviceCode} is already item ${position(earlier)} of this request`;
      reasons.push(reason("MZ-DUP-01", message));
    }
    const exempt = isType(item, "PHARMACEUTICAL") || isType(item, "CONSULTATION");
    const same = exempt
      ? undefined
      : within(byService.get(item.serviceCode), request.treatmentDate, duplicateWindowDays);
    if (same !== undefined) {
      const ago = daysBetween(same.date, request.treatmentDate);
      const message = `service ${item.serviceCode} was approved on ${isoDay(same.date)} (${same.reference}), ${count(ago, "day")} before, within the ${duplicateWindowDays}-day window`;
      reasons.push(reason("MZ-DUP-02", message));
    }
    const visit = isType(item, "CONSULTATION")
      ? within(consultations, request.treatmentDate, followUpDays)
      : undefined;
    if (visit !== undefined) {
      const ago = daysBetween(visit.date, request.treatmentDate);
      const message = `a consultation with provider ${request.providerCchiNo} was approved on ${isoDay(visit.date)} (${visit.reference}), ${count(ago, "day")} before, within the ${followUpDays}-day free follow-up period`;
      reasons.push(reason("MZ-DUP-03", message));
    }
    return reasons.map((r) => ({ kind: "reject", reason: r }));
  });
  return { findings, alerts: [] };
}

/** the newest of `items` (sorted newest first) at most `days` days before the date */
function within(items: HistoryItem[] | undefined, date: Date, days: number): HistoryItem | undefined {
  const newest = items?.[0];
  return newest !== undefined && daysBetween(newest.date, date) <= days ? newest : undefined;
}
