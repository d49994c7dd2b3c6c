import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { type PolicyHolderRow, policyHolderRepo } from "./repo.js";
import type { PolicyHolderCreateInput, PolicyHolderUpdateInput } from "./schemas.js";

/** which unique rule a duplicate broke, said in the 409's message */
function conflicts(values: { ph_erp_id?: string; name?: string; registration_number?: string }) {
  const taken = (what: string) => () =>
    new AppError("E_PH_CONFLICT", `A policy holder with this ${what} already exists`);
  return {
    policy_holders_ph_erp_id_key: taken(`ph_erp_id ${values.ph_erp_id ?? ""}`.trim()),
    policy_holders_name_key: taken(`name ${values.name ?? ""}`.trim()),
    policy_holders_registration_number_key: taken(
      `registration_number ${values.registration_number ?? ""}`.trim(),
    ),
  };
}

export function createPolicyHolder(
  db: Db,
  actor: TenantActor,
  input: PolicyHolderCreateInput,
): Promise<PolicyHolderRow> {
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const holder = await policyHolderRepo.insert(tx, actor.tenantId, {
          ph_erp_id: input.ph_erp_id,
          name: input.name,
          insurance_type: input.insurance_type,
          province: input.province ?? null,
          registration_number: input.registration_number ?? null,
        });
        await recordAudit(tx, actor, {
          action: "policy_holder.create",
          entityType: "policy_holder",
          entityKey: holder.ph_erp_id,
          details: { ...input },
        });
        return holder;
      }),
    conflicts(input),
  );
}

export function updatePolicyHolder(
  db: Db,
  actor: TenantActor,
  input: PolicyHolderUpdateInput,
): Promise<PolicyHolderRow> {
  const { identifier, ...changes } = input;
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const holder = await policyHolderRepo.update(tx, actor.tenantId, identifier, changes);
        if (holder === undefined) throw new AppError("E_EPH_01", `Policy holder ${identifier} not found`);
        await recordAudit(tx, actor, {
          action: "policy_holder.update",
          entityType: "policy_holder",
          entityKey: identifier,
          details: { changes },
        });
        return holder;
      }),
    conflicts(changes),
  );
}

export async function getPolicyHolder(db: Db, tenantId: number, phErpId: string): Promise<PolicyHolderRow> {
  const holder = await policyHolderRepo.findByErpId(db, tenantId, phErpId);
  if (holder === undefined) throw new AppError("E_EPH_01", `Policy holder ${phErpId} not found`);
  return holder;
}
