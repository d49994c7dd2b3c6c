/**
 * Eligibility (standard mode): the member must be on the policy through an active link, the policy must be
 * active, and both must cover the treatment date. A failure rejects every item, with every failure named.
 */
import { dayOfText, isoDay } from "./dates.js";
import { type CheckResult, noFindings, rejectAll } from "./findings.js";
import { reason } from "./reasons.js";
import type { Coverage, EngineContext, EngineRequest, Reason } from "./types.js";

const active = (status: string): boolean => status.trim().toUpperCase() === "ACTIVE";

export function checkEligibility(request: EngineRequest, context: EngineContext): CheckResult {
  if (context.mode !== "standard") return { findings: noFindings(request.items), alerts: [] };
  const reasons = eligibilityReasons(context.coverage, request.treatmentDate);
  return { findings: rejectAll(request.items, reasons), alerts: [] };
}

/** why the member is not covered on `date` under the coverage (none: covered) */
export function eligibilityReasons(coverage: Coverage | undefined, date: Date): Reason[] {
  const reasons: Reason[] = [];
  const day = isoDay(date);
  const link = coverage?.link;
  if (link === undefined) {
    reasons.push(reason("MZ-ELIG-01", "the member has no link to the policy of the request"));
  } else {
    if (!active(link.status)) {
      reasons.push(reason("MZ-ELIG-02", `the member's link to the policy is ${link.status}, not ACTIVE`));
    }
    reasons.push(...coverageDates("the member's link", link, day));
  }
  if (coverage !== undefined) {
    const policy = coverage.policy;
    if (!active(policy.status))
      reasons.push(reason("MZ-ELIG-03", `the policy is ${policy.status}, not ACTIVE`));
    reasons.push(...coverageDates("the policy", policy, day));
  }
  return reasons;
}

function coverageDates(what: string, period: { startDate: string; endDate: string }, day: string): Reason[] {
  const [start, end] = [dayOfText(period.startDate), dayOfText(period.endDate)];
  if (day > end) return [reason("MZ-ELIG-04", `treatment date ${day} is after ${what} ended on ${end}`)];
  if (day < start)
    return [reason("MZ-ELIG-05", `treatment date ${day} is before ${what} starts on ${start}`)];
  return [];
}
