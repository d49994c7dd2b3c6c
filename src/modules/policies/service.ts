import { halalasOf } from "../../engine/money.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError, type ErrorCode, refusal, withConflicts } from "../../platform/http/errors.js";
import { dateOf } from "../../platform/http/validation.js";
import { memberRepo } from "../members/repo.js";
import { networkRepo } from "../networks/repo.js";
import { type PatientLinkRow, type PolicyRow, patientLinkRepo, policyRepo } from "./repo.js";
import type { PatientPolicyUpdateInput, PolicyCreateInput, PolicyUpdateInput } from "./schemas.js";

export interface PolicyKey {
  ph_erp_id: string;
  policy_no: string;
}

/**
 * The policy a request names. A missing holder is E_EPH_01, except where the spec lists only E_EPA_014
 * for the operation (the bulk imports): there `holderMissing` says so.
 */
export async function requirePolicy(
  db: Queryable,
  tenantId: number,
  key: PolicyKey,
  holderMissing: ErrorCode = "E_EPH_01",
): Promise<PolicyRow> {
  const found = await policyRepo.findWithHolder(db, tenantId, key.ph_erp_id, key.policy_no);
  return requireFoundPolicy(found, key, holderMissing);
}

/** the policy of what findWithHolder found, or the error that says which of holder and policy is missing */
export function requireFoundPolicy(
  found: { policy: PolicyRow | undefined } | undefined,
  key: PolicyKey,
  holderMissing: ErrorCode = "E_EPH_01",
): PolicyRow {
  if (found === undefined) throw new AppError(holderMissing, `Policy holder ${key.ph_erp_id} not found`);
  if (found.policy === undefined)
    throw new AppError("E_EPA_014", `Policy ${key.policy_no} of policy holder ${key.ph_erp_id} not found`);
  return found.policy;
}

export async function requireMemberPk(db: Queryable, tenantId: number, memberId: string): Promise<number> {
  const memberPk = await memberRepo.findPk(db, tenantId, memberId);
  if (memberPk === undefined) throw new AppError("E_EPA_01", `Patient ${memberId} not found`);
  return memberPk;
}

/** network_code names a network by its name (docs/operator-contract.md section 6) */
export async function requireNetworkId(
  db: Queryable,
  tenantId: number,
  networkCode: string,
): Promise<number> {
  const network = await networkRepo.findByName(db, tenantId, networkCode);
  if (network === undefined) throw new AppError("E_EPA_015", `Network ${networkCode} not found`);
  return network.id;
}

function requireDateOrder(start: string, end: string, field = "end_date", startField = "start_date") {
  if (end < start) throw refusal("E_BAD_REQUEST_400", [`${field} must not be before ${startField}`]);
}

export function conflictMessage(memberId: string, policyNo: string, conflict: { policy_no: string }): string {
  return conflict.policy_no === policyNo
    ? `Patient ${memberId} is already assigned to policy ${policyNo}`
    : `Patient ${memberId} already has an active policy ${conflict.policy_no} covering these dates`;
}

export async function createPolicy(db: Db, actor: TenantActor, input: PolicyCreateInput) {
  const policy = {
    policy_no: input.policy_no,
    start_date: dateOf(input.start_date),
    end_date: dateOf(input.end_date),
    created_date: dateOf(input.created_date),
    status: input.status,
    plan_code: null,
  };
  requireDateOrder(policy.start_date, policy.end_date);
  const patient = input.add_patient_to_policy;
  const link = patient && {
    start_date: dateOf(patient.start_date),
    end_date: dateOf(patient.end_date),
  };
  if (link) requireDateOrder(link.start_date, link.end_date, "add_patient_to_policy.end_date");

  const found = await policyRepo.findWithHolder(db, actor.tenantId, input.ph_erp_id, input.policy_no);
  if (found === undefined) throw new AppError("E_EPH_01", `Policy holder ${input.ph_erp_id} not found`);
  const exists = () => new AppError("E_EPA_069", `Policy ${input.policy_no} already exists`);
  if (found.policy !== undefined) throw exists();

  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const created = await policyRepo.insert(tx, actor.tenantId, found.holderId, policy);
        if (patient && link) {
          const [member] = await patientLinkRepo.lockMembers(tx, actor.tenantId, [patient.member_id]);
          if (member === undefined) throw new AppError("E_EPA_01", `Patient ${patient.member_id} not found`);
          const networkId = patient.network_code
            ? await requireNetworkId(tx, actor.tenantId, patient.network_code)
            : null;
          const [conflict] = await patientLinkRepo.findConflicts(tx, created.id, [
            { member_pk: member.id, ...link },
          ]);
          if (conflict)
            throw new AppError("E_EPA_069", conflictMessage(patient.member_id, input.policy_no, conflict));
          await patientLinkRepo.insertMany(tx, actor.tenantId, created.id, [
            {
              member_pk: member.id,
              category_code: patient.category_code,
              network_id: networkId,
              ...link,
              is_vip: false,
              insured_notes: null,
              additional_date: null,
            },
          ]);
        }
        await recordAudit(tx, actor, {
          action: "policy.create",
          entityType: "policy",
          entityKey: `${input.ph_erp_id}/${input.policy_no}`,
          details: patient ? { added_patient: patient.member_id } : undefined,
        });
        return created;
      }),
    { policies_policy_no_key: exists },
  );
}

export async function updatePolicy(db: Db, actor: TenantActor, key: PolicyKey, input: PolicyUpdateInput) {
  const policy = await requirePolicy(db, actor.tenantId, key);
  const changes = {
    start_date: input.start_date === undefined ? undefined : dateOf(input.start_date),
    end_date: input.end_date === undefined ? undefined : dateOf(input.end_date),
    status: input.status,
    plan_code: input.plan_code,
  };
  requireDateOrder(changes.start_date ?? policy.start_date, changes.end_date ?? policy.end_date);
  return db.transaction(async (tx) => {
    const updated = await policyRepo.update(tx, actor.tenantId, policy.id, changes);
    if (updated === undefined) throw new AppError("E_EPA_014", `Policy ${key.policy_no} not found`);
    await recordAudit(tx, actor, {
      action: "policy.update",
      entityType: "policy",
      entityKey: `${key.ph_erp_id}/${key.policy_no}`,
      details: { fields: Object.keys(input) },
    });
    return updated;
  });
}

/** the member's link to the policy (404 E_EPA_01 when the member is not on it) */
export async function requireLink(db: Queryable, tenantId: number, key: PolicyKey & { member_id: string }) {
  const policy = await requirePolicy(db, tenantId, key);
  const memberPk = await requireMemberPk(db, tenantId, key.member_id);
  const link = await patientLinkRepo.find(db, policy.id, memberPk);
  if (link === undefined)
    throw new AppError("E_EPA_01", `Patient ${key.member_id} is not on policy ${key.policy_no}`);
  return { policy, link };
}

export async function updatePatientPolicy(
  db: Db,
  actor: TenantActor,
  key: PolicyKey & { member_id: string },
  input: PatientPolicyUpdateInput,
): Promise<PatientLinkRow> {
  const { policy, link } = await requireLink(db, actor.tenantId, key);
  const networkId =
    input.network_code === undefined
      ? link.network_id
      : await requireNetworkId(db, actor.tenantId, input.network_code);
  const next = {
    category_code: input.category_code ?? link.category_code,
    network_id: networkId,
    start_date: input.start_date === undefined ? link.start_date : dateOf(input.start_date),
    end_date: input.end_date === undefined ? link.end_date : dateOf(input.end_date),
    status: input.status ?? link.status,
  };
  requireDateOrder(next.start_date, next.end_date);
  await db.transaction(async (tx) => {
    await patientLinkRepo.lockMembers(tx, actor.tenantId, [key.member_id]);
    if (next.status === "ACTIVE") {
      const candidate = { member_pk: link.member_pk, start_date: next.start_date, end_date: next.end_date };
      const [conflict] = await patientLinkRepo.findConflicts(tx, policy.id, [candidate], link.id);
      if (conflict)
        throw new AppError("E_EPA_069", conflictMessage(key.member_id, policy.policy_no, conflict));
    }
    await patientLinkRepo.update(tx, link.id, next);
    await recordAudit(tx, actor, {
      action: "patient-policy.update",
      entityType: "patient-policy",
      entityKey: `${key.ph_erp_id}/${key.policy_no}/${key.member_id}`,
      details: { fields: Object.keys(input) },
    });
  });
  return (await patientLinkRepo.find(db, policy.id, link.member_pk)) as PatientLinkRow;
}

/** utilization rows summed in halalas: in all, ex-gratia, per benefit, and per `benefit/sub-benefit` */
export function foldUtilization(
  usage: readonly {
    benefit_code: number | null;
    sub_benefit_code: number | null;
    approved: string;
    exgratia: string;
  }[],
) {
  let utilized = 0;
  let exgratia = 0;
  const byBenefit = new Map<number, number>();
  const bySubBenefit = new Map<string, number>();
  for (const row of usage) {
    const approved = halalasOf(row.approved);
    utilized += approved;
    exgratia += halalasOf(row.exgratia);
    if (row.benefit_code === null) continue;
    byBenefit.set(row.benefit_code, (byBenefit.get(row.benefit_code) ?? 0) + approved);
    if (row.sub_benefit_code === null) continue;
    const subKey = `${row.benefit_code}/${row.sub_benefit_code}`;
    bySubBenefit.set(subKey, (bySubBenefit.get(subKey) ?? 0) + approved);
  }
  return { utilized, exgratia, byBenefit, bySubBenefit };
}
