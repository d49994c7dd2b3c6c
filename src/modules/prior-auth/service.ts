import { decide } from "../../engine/prior-auth/decide.js";
import { recordAudit } from "../../platform/audit/audit.js";
import type { RequestContext } from "../../platform/context.js";
import type { Queryable } from "../../platform/db/db.js";
import { AppError, refusal, withConflicts } from "../../platform/http/errors.js";
import { requireDiagnoses } from "../code-sets/service.js";
import { memberRepo } from "../members/repo.js";
import { type PolicyRow, policyRepo } from "../policies/repo.js";
import { requireFoundPolicy } from "../policies/service.js";
import { providerRepo } from "../providers/repo.js";
import {
  engineRequestOf,
  loadEngineContext,
  patientFactsOf,
  primaryDiagnosisOf,
  type Subject,
} from "./context.js";
import { emitPriorAuthEvents, resultHasReceivers } from "./events.js";
import { ensureDescribedBenefits, ensureMember, ensurePolicy, lockMember } from "./lightweight.js";
import { itemResultOf } from "./present.js";
import { type ItemRow, itemRowOf, newPriorAuthRow, type PriorAuthRow, priorAuthRepo } from "./repo.js";
import type { CreateInput, ItemInput } from "./schemas.js";
import { supportingInfoRepo } from "./supporting-info/repo.js";
import { checkSupportingInfo } from "./supporting-info/service.js";

export { loadCoverage } from "./context.js";
export { reasonsOf } from "./present.js";
export { listReviewQueue, type QueueEntry, type QueueFilter } from "./queue.js";
export { REOPENABLE } from "./review.js";
export { getPriorAuth } from "./view.js";
export { cancelPriorAuth, reopenPriorAuth, updatePriorAuth } from "./workflow.js";

/** rules across fields the schema cannot say; any of them refuses the request (400) */
function checkRequest(input: CreateInput): void {
  const problems: string[] = [];
  const primaries = input.diagnoses.filter((diagnosis) => diagnosis.type === "primary").length;
  if (primaries !== 1)
    problems.push(`diagnoses must hold exactly one primary diagnosis (found ${primaries})`);
  input.items.forEach((item, index) => {
    if (item.admission_date && item.discharge_date && item.discharge_date < item.admission_date)
      problems.push(`items[${index}].discharge_date must not be before admission_date`);
    if (
      item.sub_benefit_code !== undefined &&
      item.benefit_code === undefined &&
      input.benefit_code === undefined
    )
      problems.push(`items[${index}].sub_benefit_code needs a benefit_code (on the item or the request)`);
  });
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
  checkSupportingInfo(input.supporting_info ?? [], (index) => `supporting_info[${index}]`);
}

/** a member on file whose demographics differ from the request's: kept as it is, with an alert */
function memberAlerts(member: { gender: string; date_of_birth: Date }, input: CreateInput): string[] {
  if (input.is_new_born) return [];
  const differences: string[] = [];
  if (member.gender !== input.member_gender)
    differences.push(`gender ${member.gender} on file, ${input.member_gender} sent`);
  const onFile = member.date_of_birth.toISOString().slice(0, 10);
  if (onFile !== input.member_dob.slice(0, 10))
    differences.push(`date of birth ${onFile} on file, ${input.member_dob.slice(0, 10)} sent`);
  return differences.length === 0
    ? []
    : [`Member information inconsistency: ${differences.join("; ")} (the member on file was kept)`];
}

/** what the request names, read before the transaction in one round trip (standard mode: all must exist) */
async function findReferences(ctx: RequestContext, input: CreateInput) {
  const { db, tenantId } = ctx;
  const [memberPk, policy, provider, diagnoses] = await Promise.all([
    memberRepo.findPk(db, tenantId, input.member_id),
    policyRepo.findWithHolder(db, tenantId, input.ph_erp_id, input.policy_no),
    providerRepo.findByCchiNo(db, tenantId, input.medical_provider_cchi_no),
    requireDiagnoses(
      db,
      tenantId,
      input.diagnoses.map((diagnosis) => diagnosis.code),
    ),
  ]);
  if (ctx.mode === "standard") {
    if (memberPk === undefined) throw new AppError("E_EPA_01", `Patient ${input.member_id} not found`);
    requireFoundPolicy(policy, input);
    if (provider === undefined)
      throw new AppError("E_EMP_01", `Medical provider ${input.medical_provider_cchi_no} not found`);
  }
  return {
    memberPk,
    policy: policy?.policy,
    providerId: provider?.internal_id,
    diagnosisCodes: diagnoses.map((diagnosis) => diagnosis.code),
  };
}

type References = Awaited<ReturnType<typeof findReferences>>;

/**
 * The member's row locked until commit (one member's requests are adjudicated one after another) and the
 * request's policy; lightweight mode creates what the tenant lacks (member, holder, policy, benefits).
 */
async function lockSubject(tx: Queryable, ctx: RequestContext, input: CreateInput, found: References) {
  const { tenantId } = ctx;
  const creating = ctx.mode === "lightweight" && found.memberPk === undefined;
  const [member, policy] = await Promise.all([
    creating
      ? ensureMember(tx, tenantId, input)
      : lockMember(tx, tenantId, input.member_id).then((row) => row && { ...row, created: false }),
    ctx.mode === "standard" ? found.policy : (found.policy ?? ensurePolicy(tx, tenantId, input)),
  ]);
  if (member === undefined) throw new AppError("E_EPA_01", `Patient ${input.member_id} not found`);
  if (ctx.mode === "lightweight" && policy !== undefined)
    await ensureDescribedBenefits(tx, tenantId, policy.id, input);
  return { member, policy };
}

/**
 * Adjudicates a new request in the tenant's mode and answers it as the JSON API does (201 body).
 */
export async function createPriorAuth(ctx: RequestContext, input: CreateInput) {
  const { pa, items } = await adjudicateNewRequest(ctx, input);
  return {
    pre_auth_internal_id: pa.id,
    status: "COMPLETED",
    authorization_number: input.authorization_number,
    transaction_id: input.transaction_id,
    note: pa.note ?? "",
    request_alerts: pa.request_alerts,
    items_results: items.map(itemResultOf),
  };
}

/**
 * Adjudicates a new request in the tenant's mode and stores it PENDING with the engine's decisions, its
 * history, inline supporting info, the audit record and, when a target receives it, the PRE_AUTH_RESULT
 * event, in one transaction:
 * route -> here -> (references) -> (lock, context) -> engine -> (store) -> reply. Each step sends its
 * statements together, so a create costs three round trips to the database, the COMMIT riding on the last
 * unless a target receives its event.
 * transaction_id is the idempotency key: a second use is 409 E_EPA_069, decided by the unique index.
 */
export async function adjudicateNewRequest(
  ctx: RequestContext,
  input: CreateInput,
  /** what the caller writes with the request, in its transaction and round trip (the FHIR answer) */
  alongside?: (tx: Queryable, stored: { pa: PriorAuthRow; items: ItemRow[] }) => Promise<unknown>,
): Promise<{ pa: PriorAuthRow; items: ItemRow[] }> {
  checkRequest(input);
  const found = await findReferences(ctx, input);
  const request = engineRequestOf(input, found.diagnosisCodes);
  const now = ctx.now();
  const subjectOf = (memberPk: number, policy: PolicyRow | undefined): Subject => ({
    mode: ctx.mode,
    member: { pk: memberPk, memberId: input.member_id },
    policy: ctx.mode === "standard" ? policy : undefined,
    providerId: found.providerId,
    providerCchiNo: input.medical_provider_cchi_no,
    exceptPriorAuthId: null,
  });
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const locking = lockSubject(tx, ctx, input, found);
      const reserving = priorAuthRepo.reserveId(tx);
      // loaded with the lock: a member unknown before the transaction has no requests yet (pk 0 matches
      // none) unless another request created it meanwhile, and then it is loaded again; lightweight mode
      // reads no policy, standard mode found it before
      const loading = loadEngineContext(
        tx,
        ctx.tenantId,
        subjectOf(found.memberPk ?? 0, found.policy),
        request,
      );
      // whether a target receives the event, unless something is written alongside (then not asked)
      const checking =
        alongside === undefined
          ? resultHasReceivers(tx, ctx.tenantId, input.transaction_type ?? "PREAUTH")
          : undefined;
      const [subject, id, early, received] = await Promise.all([locking, reserving, loading, checking]);
      const member = subject.member;
      const loaded =
        member.pk === found.memberPk || member.created
          ? early
          : await loadEngineContext(tx, ctx.tenantId, subjectOf(member.pk, subject.policy), request);
      const decision = decide(request, { ...loaded, member: patientFactsOf(member, input) }, now);
      const pa = newPriorAuthRow(
        {
          id,
          transaction_id: input.transaction_id,
          member_pk: member.pk,
          policy_id: subject.policy?.id ?? null,
          mode: ctx.mode,
          provider_id: found.providerId ?? null,
          request: input,
          note: decision.note,
          request_alerts: [...memberAlerts(member, input), ...decision.requestAlerts],
        },
        now,
      );
      const items = decision.items.map((item) => itemRowOf(input.items[item.index] as ItemInput, item));
      const details = { mode: ctx.mode, note: decision.note };
      const writes = () =>
        Promise.all([
          priorAuthRepo.insert(tx, ctx.tenantId, pa, primaryDiagnosisOf(request), items, {
            actor: ctx.actor,
            requestId: ctx.requestId,
            details,
          }),
          supportingInfoRepo.insertMany(tx, ctx.tenantId, id, "PREAUTH", input.supporting_info ?? []),
          recordAudit(tx, ctx, {
            action: "prior-authorization.create",
            entityType: "prior-authorization",
            entityKey: input.transaction_id,
            details,
          }),
          emitPriorAuthEvents(
            tx,
            ctx.jobs,
            ctx,
            id,
            ["PRE_AUTH_RESULT"],
            "ENGINE",
            { cause: "created" },
            {},
            received === false ? { pa, items, receivers: "none" } : { pa, items },
          ),
          alongside?.(tx, { pa, items }),
        ]);
      // with a receiver, a delivery job follows the event's statement: the COMMIT cannot ride on the writes
      await (received === false ? tx.commitWith(writes) : writes());
      return { pa, items };
    });
  return withConflicts(run, {
    prior_authorizations_transaction_id_key: () =>
      new AppError("E_EPA_069", `transaction_id ${input.transaction_id} is already used`),
  });
}
