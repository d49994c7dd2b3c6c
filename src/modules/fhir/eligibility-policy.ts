import { eligibilityReasons } from "../../engine/prior-auth/eligibility.js";
import type { Coverage } from "../../engine/prior-auth/types.js";
import type { RequestContext } from "../../platform/context.js";
import { type MemberPolicyRow, policyRepo } from "../policies/repo.js";
import { templateRepo } from "../policy-templates/repo.js";
import { loadCoverage } from "../prior-auth/service.js";

/**
 * Whether a member's policy is in force for a provider on a day, as the engine's eligibility check decides
 * it, and the siteEligibility code (http://nphies.sa/terminology/CodeSystem/siteEligibility) that says why.
 */

export type Site = "eligible" | "not-active" | "out-network" | "limit-exhausted";

export interface PolicyAnswer {
  /** the payer's member id of the member answered about */
  memberId: string;
  /** the member's policy answered about; undefined when the member holds none */
  policy: MemberPolicyRow | undefined;
  inforce: boolean;
  site: Site;
  /** why it is not in force (the engine's reasons) */
  reasons: string[];
  /** standard mode: the link, network and category limits the engine reads */
  facts: Coverage | undefined;
  /** the tenant's description of each benefit of the member's category */
  benefitNames: ReadonlyMap<number, string>;
}

/** the site code of facts the engine found in force: the network first, then the category's limit */
function siteOf(facts: Coverage): Site {
  if (facts.providerInNetwork === false) return "out-network";
  const category = facts.category;
  if (category !== undefined && category.limit > 0 && category.utilized >= category.limit)
    return "limit-exhausted";
  return "eligible";
}

/** lightweight tenants keep no coverage: every member is eligible, as the engine adjudicates them */
export const lightweightAnswer = (memberId: string): PolicyAnswer => ({
  memberId,
  policy: undefined,
  inforce: true,
  site: "eligible",
  reasons: [],
  facts: undefined,
  benefitNames: new Map(),
});

/** a standard tenant's answer for the member's policy `row` (none: the member holds no policy) */
export async function answerPolicy(
  ctx: RequestContext,
  member: { pk: number; memberId: string },
  row: MemberPolicyRow | undefined,
  providerLicense: string,
  day: string,
): Promise<PolicyAnswer> {
  const notInForce = (reasons: string[], facts?: Coverage): PolicyAnswer => ({
    memberId: member.memberId,
    policy: row,
    inforce: false,
    site: "not-active",
    reasons,
    facts,
    benefitNames: new Map(),
  });
  if (row === undefined) return notInForce([`member ${member.memberId} holds no policy`]);
  const policy = await policyRepo.findById(ctx.db, row.policy_id);
  if (policy === undefined) return notInForce([`policy ${row.policy_no} is not known`]);
  const subject = {
    mode: ctx.mode,
    member,
    policy,
    providerId: undefined,
    providerCchiNo: providerLicense,
    exceptPriorAuthId: null,
  };
  const [facts, template] = await Promise.all([
    loadCoverage(ctx.db, ctx.tenantId, subject, policy),
    templateRepo.loadCategoryOfMember(ctx.db, policy.id, member.pk),
  ]);
  const reasons = eligibilityReasons(facts, new Date(`${day}T00:00:00Z`)).map((reason) => reason.message);
  if (reasons.length > 0) return notInForce(reasons, facts);
  const benefitNames = new Map(
    (template?.benefits ?? []).flatMap((benefit): [number, string][] =>
      benefit.benefit_description === null ? [] : [[benefit.benefit_code, benefit.benefit_description]],
    ),
  );
  return {
    memberId: member.memberId,
    policy: row,
    inforce: true,
    site: siteOf(facts),
    reasons,
    facts,
    benefitNames,
  };
}
