import type { TenantMode } from "../../config.js";
import type { EngineDecision } from "../../engine/prior-auth/types.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError, refusal, withConflicts } from "../../platform/http/errors.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { requireDiagnoses } from "../code-sets/service.js";
import { memberRepo } from "../members/repo.js";
import type { PolicyRow } from "../policies/repo.js";
import { requirePolicy } from "../policies/service.js";
import { providerRepo } from "../providers/repo.js";
import { adjudicate, storedDecisionOf } from "./adjudicate.js";
import { emitPriorAuthEvents } from "./events.js";
import { ensureDescribedBenefits, ensureMember, ensurePolicy, lockMember } from "./lightweight.js";
import { itemResultOf } from "./present.js";
import { type ItemRow, type PriorAuthRow, priorAuthRepo } from "./repo.js";
import type { CreateInput, ItemInput } from "./schemas.js";
import { supportingInfoRepo } from "./supporting-info/repo.js";
import { checkSupportingInfo } from "./supporting-info/service.js";

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

/** a request just stored, as a row of the table (the create's event is built from it) */
function newRequestRow(
  id: number,
  input: CreateInput,
  known: {
    mode: TenantMode;
    memberPk: number;
    policyId: number | null;
    providerId: number | null;
    note: string;
    alerts: string[];
    now: Date;
  },
): PriorAuthRow {
  return {
    id,
    transaction_id: input.transaction_id,
    member_pk: known.memberPk,
    policy_id: known.policyId,
    status: "PENDING",
    mode: known.mode,
    authorization_number: input.authorization_number,
    transaction_type: input.transaction_type ?? "PREAUTH",
    provider_cchi_no: input.medical_provider_cchi_no,
    provider_id: known.providerId,
    treatment_date: new Date(input.treatment_date),
    request: input,
    note: known.note,
    request_alerts: known.alerts,
    reviewer_erp_id: null,
    approval_remarks: null,
    referral_remarks: null,
    internal_referral_notes: null,
    internal_notes: null,
    referral_cchi_code: null,
    referral_valid_days: null,
    referred_at: null,
    nphies_reopen_reason: null,
    nphies_reopen_at: null,
    reopened_by: null,
    response_bundle_id: null,
    response_bundle_status: null,
    response_bundle_date: null,
    engine_runs: 1,
    cancelled_at: null,
    created_at: known.now,
    updated_at: known.now,
  };
}

function itemRowOf(item: ItemInput, decision: ReturnType<typeof storedDecisionOf>): ItemRow {
  return {
    ...decision,
    id: 0,
    service_code: item.service_code,
    erp_item_id: item.erp_item_id ?? null,
    claimed_quantity: item.claimed_quantity ?? 1,
    claimed_amount: String(item.claimed_amount ?? 0),
    item,
    ai_score: String(decision.ai_score),
  };
}

/** standard mode: everything the request names must exist, checked before anything is written */
async function requireReferences(db: Queryable, tenantId: number, input: CreateInput) {
  if ((await memberRepo.findPk(db, tenantId, input.member_id)) === undefined)
    throw new AppError("E_EPA_01", `Patient ${input.member_id} not found`);
  const policy = await requirePolicy(db, tenantId, input);
  const provider = await providerRepo.findByCchiNo(db, tenantId, input.medical_provider_cchi_no);
  if (provider === undefined)
    throw new AppError("E_EMP_01", `Medical provider ${input.medical_provider_cchi_no} not found`);
  return { policy, providerId: provider.internal_id };
}

export interface CreateOutcome {
  id: number;
  decision: EngineDecision;
  alerts: string[];
}

/**
 * Adjudicates a new request in the tenant's mode and stores it PENDING with the engine's decisions, its
 * history, inline supporting info, the audit record and the PRE_AUTH_RESULT event, in one transaction.
 * transaction_id is the idempotency key: a second use is 409 E_EPA_069, decided by the unique index.
 */
export async function createPriorAuth(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  mode: TenantMode,
  input: CreateInput,
  now: Date = new Date(),
) {
  checkRequest(input);
  const tenantId = actor.tenantId;
  const references =
    mode === "standard"
      ? await requireReferences(db, tenantId, input)
      : {
          policy: undefined as PolicyRow | undefined,
          providerId: (await providerRepo.findByCchiNo(db, tenantId, input.medical_provider_cchi_no))
            ?.internal_id,
        };
  const diagnoses = await requireDiagnoses(
    db,
    tenantId,
    input.diagnoses.map((diagnosis) => diagnosis.code),
  );
  const diagnosisCodes = diagnoses.map((diagnosis) => diagnosis.code);
  const primaryDiagnosis = diagnosisCodes[input.diagnoses.findIndex((d) => d.type === "primary")] as string;
  const run = () =>
    db.transaction(async (tx) => {
      let member: { pk: number; gender: "MALE" | "FEMALE"; date_of_birth: Date } | undefined;
      let policy = references.policy;
      if (mode === "standard") member = await lockMember(tx, tenantId, input.member_id);
      else {
        member = await ensureMember(tx, tenantId, input);
        policy = await ensurePolicy(tx, tenantId, input);
        await ensureDescribedBenefits(tx, tenantId, policy.id, input);
      }
      if (member === undefined) throw new AppError("E_EPA_01", `Patient ${input.member_id} not found`);
      const decision = await adjudicate(
        tx,
        tenantId,
        {
          mode,
          member: {
            pk: member.pk,
            memberId: input.member_id,
            gender: member.gender,
            dateOfBirth: member.date_of_birth,
          },
          policy: mode === "standard" ? policy : undefined,
          providerId: references.providerId,
          priorAuthId: null,
        },
        input,
        diagnosisCodes,
        now,
      );
      const alerts = [...memberAlerts(member, input), ...decision.requestAlerts];
      const stored = decision.items.map(storedDecisionOf);
      const id = await priorAuthRepo.insert(
        tx,
        tenantId,
        {
          transaction_id: input.transaction_id,
          member_pk: member.pk,
          policy_id: policy?.id ?? null,
          mode,
          authorization_number: input.authorization_number,
          transaction_type: input.transaction_type ?? "PREAUTH",
          provider_cchi_no: input.medical_provider_cchi_no,
          provider_id: references.providerId ?? null,
          treatment_date: input.treatment_date,
          primary_diagnosis: primaryDiagnosis,
          request: input,
          note: decision.note,
          request_alerts: alerts,
        },
        input.items,
        stored,
        { actor: actor.actor, requestId: actor.requestId, details: { mode, note: decision.note } },
      );
      await supportingInfoRepo.insertMany(tx, tenantId, id, "PREAUTH", input.supporting_info ?? []);
      await recordAudit(tx, actor, {
        action: "prior-authorization.create",
        entityType: "prior-authorization",
        entityKey: input.transaction_id,
        details: { mode, note: decision.note },
      });
      await emitPriorAuthEvents(
        tx,
        jobs,
        actor,
        id,
        ["PRE_AUTH_RESULT"],
        "ENGINE",
        {},
        {
          pa: newRequestRow(id, input, {
            mode,
            memberPk: member.pk,
            policyId: policy?.id ?? null,
            providerId: references.providerId ?? null,
            note: decision.note,
            alerts,
            now,
          }),
          items: stored.map((d) => itemRowOf(input.items[d.item_index] as ItemInput, d)),
        },
      );
      return { id, decision, alerts };
    });
  const outcome = await withConflicts(run, {
    prior_authorizations_transaction_id_key: () =>
      new AppError("E_EPA_069", `transaction_id ${input.transaction_id} is already used`),
  });
  return {
    pre_auth_internal_id: outcome.id,
    status: "COMPLETED",
    authorization_number: input.authorization_number,
    transaction_id: input.transaction_id,
    note: outcome.decision.note,
    request_alerts: outcome.alerts,
    items_results: outcome.decision.items.map((item) =>
      itemResultOf(input.items[item.index], storedDecisionOf(item)),
    ),
  };
}
