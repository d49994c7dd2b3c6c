import { decide } from "../../engine/prior-auth/decide.js";
import type { EngineRequest } from "../../engine/prior-auth/types.js";
import { recordAudit } from "../../platform/audit/audit.js";
import type { RequestContext } from "../../platform/context.js";
import { pgErrorOf, type Queryable, SERIALIZATION_FAILURE, type Transaction } from "../../platform/db/db.js";
import { AppError, refusal, withConflicts } from "../../platform/http/errors.js";
import { requireDiagnoses } from "../code-sets/service.js";
import { type MemberForAdjudication, memberRepo } from "../members/repo.js";
import { type PolicyRow, policyRepo } from "../policies/repo.js";
import { requireFoundPolicy } from "../policies/service.js";
import { providerRepo } from "../providers/repo.js";
import {
  engineRequestOf,
  type LoadedContext,
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
  const [member, policy, provider, diagnoses] = await Promise.all([
    memberRepo.findForAdjudication(db, tenantId, input.member_id),
    policyRepo.findWithHolder(db, tenantId, input.ph_erp_id, input.policy_no),
    providerRepo.findByCchiNo(db, tenantId, input.medical_provider_cchi_no),
    requireDiagnoses(
      db,
      tenantId,
      input.diagnoses.map((diagnosis) => diagnosis.code),
    ),
  ]);
  if (ctx.mode === "standard") {
    if (member === undefined) throw new AppError("E_EPA_01", `Patient ${input.member_id} not found`);
    requireFoundPolicy(policy, input);
    if (provider === undefined)
      throw new AppError("E_EMP_01", `Medical provider ${input.medical_provider_cchi_no} not found`);
  }
  return {
    member,
    policy: policy?.policy,
    providerId: provider?.internal_id,
    diagnosisCodes: diagnoses.map((diagnosis) => diagnosis.code),
  };
}

type References = Awaited<ReturnType<typeof findReferences>>;

/** lightweight mode files the benefits the request describes under its policy (none in standard mode) */
const describeBenefits = (
  tx: Queryable,
  ctx: RequestContext,
  input: CreateInput,
  policy: PolicyRow | undefined,
) =>
  ctx.mode === "lightweight" && policy !== undefined
    ? ensureDescribedBenefits(tx, ctx.tenantId, policy.id, input)
    : Promise.resolve();

/**
 * The member's row locked until commit (one member's requests are adjudicated one after another) and the
 * request's policy; lightweight mode creates what the tenant lacks (member, holder, policy, benefits).
 */
async function lockSubject(tx: Queryable, ctx: RequestContext, input: CreateInput, found: References) {
  const { tenantId } = ctx;
  const creating = ctx.mode === "lightweight" && found.member === undefined;
  const [member, policy] = await Promise.all([
    creating
      ? ensureMember(tx, tenantId, input)
      : lockMember(tx, tenantId, input.member_id).then((row) => row && { ...row, created: false }),
    ctx.mode === "standard" ? found.policy : (found.policy ?? ensurePolicy(tx, tenantId, input)),
  ]);
  if (member === undefined) throw new AppError("E_EPA_01", `Patient ${input.member_id} not found`);
  await describeBenefits(tx, ctx, input, policy);
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

/** one create being adjudicated: the request and what was found for it before any transaction */
interface NewRequest {
  ctx: RequestContext;
  input: CreateInput;
  request: EngineRequest;
  found: References;
  now: Date;
  /** what the caller writes with the request, in its transaction and round trip (the FHIR answer) */
  alongside: ((tx: Queryable, stored: StoredRequest) => Promise<unknown>) | undefined;
}

interface StoredRequest {
  pa: PriorAuthRow;
  items: ItemRow[];
  /** the primary diagnosis and the request's service codes the tenant had not seen with it when read */
  pairs: { primaryDiagnosis: string; newServiceCodes: string[] };
}

/** what the engine is run on: the member, the policy, the reserved id and what was read for them */
interface Reading {
  member: MemberForAdjudication;
  policy: PolicyRow | undefined;
  id: number;
  loaded: LoadedContext;
}

const subjectOf = (a: NewRequest, memberPk: number, policy: PolicyRow | undefined): Subject => ({
  mode: a.ctx.mode,
  member: { pk: memberPk, memberId: a.input.member_id },
  policy: a.ctx.mode === "standard" ? policy : undefined,
  providerId: a.found.providerId,
  providerCchiNo: a.input.medical_provider_cchi_no,
  exceptPriorAuthId: null,
});

/** whether a target receives the result event, unless something is written alongside (then not asked) */
const receiversOf = (a: NewRequest, db: Queryable) =>
  a.alongside === undefined
    ? resultHasReceivers(db, a.ctx.tenantId, a.input.transaction_type ?? "PREAUTH")
    : undefined;

/** the engine's decisions on the request, as the rows that store them */
function decideRows(a: NewRequest, reading: Reading): StoredRequest {
  const { input, now } = a;
  const { member, loaded } = reading;
  const decision = decide(a.request, { ...loaded, member: patientFactsOf(member, input) }, now);
  const pa = newPriorAuthRow(
    {
      id: reading.id,
      transaction_id: input.transaction_id,
      member_pk: member.pk,
      policy_id: reading.policy?.id ?? null,
      mode: a.ctx.mode,
      provider_id: a.found.providerId ?? null,
      request: input,
      note: decision.note,
      request_alerts: [...memberAlerts(member, input), ...decision.requestAlerts],
    },
    now,
  );
  const items = decision.items.map((item) => itemRowOf(input.items[item.index] as ItemInput, item));
  const pairs = {
    primaryDiagnosis: primaryDiagnosisOf(a.request),
    newServiceCodes: loaded.newPairedServices,
  };
  return { pa, items, pairs };
}

/**
 * The request's writes, sent together after `first` (statements that must run before them); the COMMIT
 * rides on them unless a target receives the event (a delivery job then follows the event's statement).
 */
async function storeRequest(
  tx: Transaction,
  a: NewRequest,
  stored: StoredRequest,
  received: boolean | undefined,
  first: () => Promise<unknown>[],
): Promise<void> {
  const { ctx, input } = a;
  const { pa, items } = stored;
  const details = { mode: ctx.mode, note: pa.note };
  const writes = () =>
    Promise.all([
      ...first(),
      priorAuthRepo.insert(tx, ctx.tenantId, pa, items, stored.pairs, {
        actor: ctx.actor,
        requestId: ctx.requestId,
        details,
      }),
      supportingInfoRepo.insertMany(tx, ctx.tenantId, pa.id, "PREAUTH", input.supporting_info ?? []),
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
        pa.id,
        ["PRE_AUTH_RESULT"],
        "ENGINE",
        { cause: "created" },
        {},
        received === false ? { pa, items, receivers: "none" } : { pa, items },
      ),
      a.alongside?.(tx, stored),
    ]);
  await (received === false ? tx.commitWith(writes) : writes());
}

/**
 * Reads and decides outside a transaction, then writes in one whose first statement takes the member's
 * version that was read: all of the transaction goes to the database at once, and on the embedded
 * database its one session never waits for the engine. Undefined when another adjudication of the
 * member committed since the read (the version moved on, the transaction rolled back): the caller then
 * decides again, holding the member's row.
 */
async function decideBeforeWriting(
  a: NewRequest,
  member: MemberForAdjudication,
  policy: PolicyRow | undefined,
): Promise<StoredRequest | undefined> {
  const { db, tenantId } = a.ctx;
  const [id, loaded, received] = await Promise.all([
    priorAuthRepo.reserveId(db),
    loadEngineContext(db, tenantId, subjectOf(a, member.pk, policy), a.request),
    receiversOf(a, db),
  ]);
  const stored = decideRows(a, { member, policy, id, loaded });
  let movedOn = false;
  try {
    await db.transaction((tx) =>
      storeRequest(tx, a, stored, received, () => [
        memberRepo.takeVersion(tx, member).catch((error: unknown) => {
          movedOn = pgErrorOf(error)?.code === SERIALIZATION_FAILURE;
          throw error;
        }),
        describeBenefits(tx, a.ctx, a.input, policy),
      ]),
    );
  } catch (error) {
    if (movedOn) return undefined;
    throw error;
  }
  return stored;
}

/**
 * Decides holding the member's row, locked with the reads in the transaction's first round trip; the
 * path of a member or policy lightweight mode creates, and of a member another adjudication moved on.
 */
function decideHoldingMember(a: NewRequest): Promise<StoredRequest> {
  const { ctx, found, request } = a;
  return ctx.db.transaction(async (tx) => {
    const locking = lockSubject(tx, ctx, a.input, found);
    const reserving = priorAuthRepo.reserveId(tx);
    // loaded with the lock: a member unknown before the transaction has no requests yet (pk 0 matches
    // none) unless another request created it meanwhile, and then it is loaded again; lightweight mode
    // reads no policy, standard mode found it before
    const loading = loadEngineContext(
      tx,
      ctx.tenantId,
      subjectOf(a, found.member?.pk ?? 0, found.policy),
      request,
    );
    const [subject, id, early, received] = await Promise.all([
      locking,
      reserving,
      loading,
      receiversOf(a, tx),
    ]);
    const member = subject.member;
    const loaded =
      member.pk === found.member?.pk || member.created
        ? early
        : await loadEngineContext(tx, ctx.tenantId, subjectOf(a, member.pk, subject.policy), request);
    const stored = decideRows(a, { member, policy: subject.policy, id, loaded });
    await storeRequest(tx, a, stored, received, () => []);
    return stored;
  });
}

/**
 * Adjudicates a new request in the tenant's mode and stores it PENDING with the engine's decisions, its
 * history, inline supporting info, the audit record and, when a target receives it, the PRE_AUTH_RESULT
 * event, in one transaction:
 * route -> here -> (references) -> (context) -> engine -> (member's version, store) -> reply. Each step
 * sends its statements together, so a create costs three round trips to the database, the last its whole
 * transaction with the COMMIT unless a target receives its event. A member or policy that lightweight
 * mode creates, or a member adjudicated meanwhile, is decided holding the member's row instead.
 * transaction_id is the idempotency key: a second use is 409 E_EPA_069, decided by the unique index.
 */
export async function adjudicateNewRequest(
  ctx: RequestContext,
  input: CreateInput,
  alongside?: NewRequest["alongside"],
): Promise<StoredRequest> {
  checkRequest(input);
  const found = await findReferences(ctx, input);
  const a: NewRequest = {
    ctx,
    input,
    request: engineRequestOf(input, found.diagnosisCodes),
    found,
    now: ctx.now(),
    alongside,
  };
  const run = async () => {
    const { member, policy } = found;
    const known = member !== undefined && (ctx.mode === "standard" || policy !== undefined);
    const decided = known ? await decideBeforeWriting(a, member, policy) : undefined;
    return decided ?? decideHoldingMember(a);
  };
  return withConflicts(run, {
    prior_authorizations_transaction_id_key: () =>
      new AppError("E_EPA_069", `transaction_id ${input.transaction_id} is already used`),
  });
}
