import type { RequestContext } from "../../platform/context.js";
import { ADJUDICATION_ERROR, type AdjudicationError } from "../../reference/nphies-fhir.js";
import { type MemberPolicyRow, patientLinkRepo } from "../policies/repo.js";
import { answerPolicy, lightweightAnswer, type PolicyAnswer } from "./eligibility-policy.js";
import type { AskedCoverage, EligibilityRequest } from "./eligibility-request.js";
import { findSubject, policiesInForce, rankPolicies, type SubjectKeys } from "./subject.js";

/**
 * Which coverages an eligibility-request is answered for: each Coverage it sends, and on discovery (or when
 * it sends none) every policy in force on the day that the patient holds, under any of its member records.
 */

type Member = { pk: number; memberId: string };

/** one CoverageEligibilityResponse.insurance: a Coverage of the request, or a policy found for it */
export interface Answered {
  /** undefined: a policy the payer found, answered with a Coverage of its own */
  asked: AskedCoverage | undefined;
  answer: PolicyAnswer;
}

export type Found =
  | { found: true; memberId: string; answered: Answered[] }
  | { found: false; error: AdjudicationError; disposition: string };

/** how a patient identifier's system reads in a disposition: its last segment (iqama, nationalid, ...) */
const labelOf = (system: string | undefined) => system?.split("/").at(-1) ?? "identifier";

/**
 * adjudication-error 1658 "No member found with the supplied patient credentials" when the Patient carries
 * identifiers; 1657 "Member number not found" when only a member id names the member
 */
function notFound(request: EligibilityRequest, keys: SubjectKeys): Found {
  const credentials = request.holders.flatMap((holder) =>
    (holder.resource.identifier ?? []).flatMap((identifier) =>
      identifier.value === undefined ? [] : [`${labelOf(identifier.system)} ${identifier.value}`],
    ),
  );
  const memberIds = keys.memberIds.length > 0 ? `member id ${keys.memberIds.join(", ")}` : "";
  if (credentials.length === 0)
    return {
      found: false,
      error: ADJUDICATION_ERROR.memberNumberNotFound,
      disposition: memberIds === "" ? "The patient is named by no identifier" : `No member has ${memberIds}`,
    };
  return {
    found: false,
    error: ADJUDICATION_ERROR.noMemberFound,
    disposition: `No member found with ${[...credentials, ...(memberIds === "" ? [] : [memberIds])].join(" or ")}`,
  };
}

/** the policies of the patient's other member records (found with the member): each may hold one */
const otherHoldings = (ctx: RequestContext, others: readonly Member[]) =>
  Promise.all(
    others.map(async (member) => ({
      member,
      rows: await patientLinkRepo.listPoliciesOfMember(ctx.db, member.pk),
    })),
  );

/** discovery: the policies in force on the day not answered already; else the member's latest, not in force */
async function discover(
  ctx: RequestContext,
  request: EligibilityRequest,
  subject: { member: Member; policies: MemberPolicyRow[]; others: Member[] },
  answered: readonly Answered[],
): Promise<Answered[]> {
  const holdings = [
    { member: subject.member, rows: subject.policies },
    ...(await otherHoldings(ctx, subject.others)),
  ];
  const done = new Set(answered.map(({ answer }) => `${answer.memberId}/${answer.policy?.policy_id}`));
  const inForce = holdings.flatMap(({ member, rows }) =>
    policiesInForce(rows, request.day)
      .filter((row) => !done.has(`${member.memberId}/${row.policy_id}`))
      .map((row) => ({ member, row })),
  );
  const latest = subject.policies[0];
  const found =
    inForce.length > 0 || answered.length > 0 || latest === undefined
      ? inForce
      : [{ member: subject.member, row: latest }];
  const answers = await Promise.all(
    found.map(({ member, row }) => answerPolicy(ctx, member, row, request.providerLicense, request.day)),
  );
  return answers.map((answer) => ({ asked: undefined, answer }));
}

/** a standard tenant: the member from its data, each coverage asked about, and on discovery those found */
async function findStandard(
  ctx: RequestContext,
  request: EligibilityRequest,
  keys: SubjectKeys,
): Promise<Found> {
  const subject = await findSubject(ctx.db, ctx.tenantId, keys, request.day);
  if (!subject.found) return notFound(request, keys);
  const asked = await Promise.all(
    request.coverages.map(async (coverage): Promise<Answered> => {
      const [best] = rankPolicies(
        subject.policies,
        { memberIds: coverage.memberIds, patientIds: keys.patientIds, classValues: coverage.classValues },
        request.day,
      );
      return {
        asked: coverage,
        answer: await answerPolicy(ctx, subject.member, best, request.providerLicense, request.day),
      };
    }),
  );
  // a request without a Coverage is a discovery whatever its purpose says (IG 7.1: Patient identifier + discovery)
  const memberId = subject.member.memberId;
  if (!request.discovery && asked.length > 0) return { found: true, memberId, answered: asked };
  return {
    found: true,
    memberId,
    answered: [...asked, ...(await discover(ctx, request, subject, asked))],
  };
}

/** a lightweight tenant keeps no coverage: each Coverage sent is eligible; discovery finds the member itself */
async function findLightweight(
  ctx: RequestContext,
  request: EligibilityRequest,
  keys: SubjectKeys,
): Promise<Found> {
  const asked = request.coverages.map(
    (coverage): Answered => ({ asked: coverage, answer: lightweightAnswer(coverage.memberIds[0] ?? "") }),
  );
  const first = asked[0]?.answer.memberId ?? "";
  if (!request.discovery && asked.length > 0) return { found: true, memberId: first, answered: asked };
  const subject = await findSubject(ctx.db, ctx.tenantId, keys, request.day);
  if (!subject.found)
    return asked.length > 0 ? { found: true, memberId: first, answered: asked } : notFound(request, keys);
  const known = asked.some(({ answer }) => answer.memberId === subject.member.memberId);
  return {
    found: true,
    memberId: subject.member.memberId,
    answered: known
      ? asked
      : [...asked, { asked: undefined, answer: lightweightAnswer(subject.member.memberId) }],
  };
}

/** the member a request names and the coverages to answer, or why there is no member to answer about */
export function findCoverages(
  ctx: RequestContext,
  request: EligibilityRequest,
  keys: SubjectKeys,
): Promise<Found> {
  return ctx.mode === "lightweight" ? findLightweight(ctx, request, keys) : findStandard(ctx, request, keys);
}
