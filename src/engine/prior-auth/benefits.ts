/**
 * Benefits (standard mode): an item's benefit must be in the member's category and its sub-benefit under that
 * benefit. An item that names no benefit is checked against the category's limit only (limits.ts): the
 * template cannot say it is uncovered, and the reviewer sees its benefit code is empty.
 */
import { type CheckResult, type Finding, noFindings, position, rejectAll } from "./findings.js";
import { reason } from "./reasons.js";
import type { BenefitLimits, EngineContext, EngineRequest, Reason, RequestItem } from "./types.js";

export function checkBenefits(request: EngineRequest, context: EngineContext): CheckResult {
  const link = context.coverage?.link;
  // without a link eligibility has rejected everything already; there is no category to look in
  if (context.mode !== "standard" || link === undefined)
    return { findings: noFindings(request.items), alerts: [] };
  const category = context.coverage?.category;
  const name = link.categoryCode;
  if (category === undefined) {
    const message = `category ${name} of the member is not defined in the policy's template`;
    return { findings: rejectAll(request.items, [reason("MZ-BEN-01", message)]), alerts: [] };
  }
  const findings = request.items.map((item): Finding[] => {
    const problem = benefitProblem(item, category.benefits, name);
    return problem === null ? [] : [{ kind: "reject", reason: problem }];
  });
  return { findings, alerts: [] };
}

function benefitProblem(
  item: RequestItem,
  benefits: readonly BenefitLimits[],
  category: string,
): Reason | null {
  const at = `item ${position(item)}`;
  if (item.benefitCode === null) {
    if (item.subBenefitCode === null) return null;
    return reason("MZ-BEN-03", `${at} names sub-benefit ${item.subBenefitCode} but no benefit`);
  }
  const benefit = benefits.find((b) => b.code === item.benefitCode);
  if (benefit === undefined) {
    return reason("MZ-BEN-02", `benefit ${item.benefitCode} of ${at} is not in category ${category}`);
  }
  if (item.subBenefitCode !== null && !benefit.subBenefits.some((s) => s.code === item.subBenefitCode)) {
    const message = `sub-benefit ${item.subBenefitCode} of ${at} is not under benefit ${benefit.code} in category ${category}`;
    return reason("MZ-BEN-03", message);
  }
  return null;
}
