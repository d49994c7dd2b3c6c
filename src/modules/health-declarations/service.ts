import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { requireMemberPk, requirePolicy } from "../policies/service.js";
import { healthDeclarationRepo } from "./repo.js";
import type { HealthDeclarationCreateInput } from "./schemas.js";

/** stores a declaration of a member under a holder's policy; answers its internal id */
export function createHealthDeclaration(
  db: Db,
  actor: TenantActor,
  input: HealthDeclarationCreateInput,
): Promise<number> {
  return db.transaction(async (tx) => {
    // checked in this order: member, holder, the holder's policy
    const memberPk = await requireMemberPk(tx, actor.tenantId, input.member_id);
    const policy = await requirePolicy(tx, actor.tenantId, {
      ph_erp_id: input.erp_ph_id,
      policy_no: input.policy_no,
    });
    const id = await healthDeclarationRepo.insert(tx, actor.tenantId, {
      member_pk: memberPk,
      policy_holder_id: policy.policy_holder_id,
      policy_id: policy.id,
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
