import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import { healthDeclarationRepo } from "./repo.js";
import type { HealthDeclarationCreateInput } from "./schemas.js";

/** stores a declaration of a member under a holder's policy; answers its internal id */
export function createHealthDeclaration(
  db: Db,
  actor: TenantActor,
  input: HealthDeclarationCreateInput,
): Promise<number> {
  return db.transaction(async (tx) => {
    const refs = await healthDeclarationRepo.findReferences(tx, actor.tenantId, {
      memberId: input.member_id,
      phErpId: input.erp_ph_id,
      policyNo: input.policy_no,
    });
    if (refs.member_pk === null) throw new AppError("E_EPA_01", `Member ${input.member_id} not found`);
    if (refs.policy_holder_id === null)
      throw new AppError("E_EPH_01", `Policy holder ${input.erp_ph_id} not found`);
    if (refs.policy_id === null)
      throw new AppError(
        "E_EPA_014",
        `Policy ${input.policy_no} of policy holder ${input.erp_ph_id} not found`,
      );
    const id = await healthDeclarationRepo.insert(tx, actor.tenantId, {
      member_pk: refs.member_pk,
      policy_holder_id: refs.policy_holder_id,
      policy_id: refs.policy_id,
      caption: input.health_declaration_caption ?? null,
      caption2: input.health_declaration_caption2 ?? null,
      declaration_type: input.health_declaration_type,
      declaration_value: input.health_declaration_value ?? null,
    });
    await recordAudit(tx, actor, {
      action: "health-declaration.create",
      entityType: "health_declaration",
      entityKey: String(id),
      details: {
        member_id: input.member_id,
        erp_ph_id: input.erp_ph_id,
        policy_no: input.policy_no,
        health_declaration_type: input.health_declaration_type,
      },
    });
    return id;
  });
}
