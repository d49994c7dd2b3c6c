import type { Queryable } from "../../platform/db/db.js";

/** internal ids of what a declaration refers to; null where the client's key matched nothing */
export interface DeclarationReferences {
  member_pk: number | null;
  policy_holder_id: number | null;
  policy_id: number | null;
}

export interface NewHealthDeclaration {
  member_pk: number;
  policy_holder_id: number;
  policy_id: number;
  caption: string | null;
  caption2: string | null;
  declaration_type: string;
  declaration_value: string | null;
}

export const healthDeclarationRepo = {
  /** the member, the holder and the holder's policy, in one round trip */
  async findReferences(
    db: Queryable,
    tenantId: number,
    keys: { memberId: string; phErpId: string; policyNo: string },
  ): Promise<DeclarationReferences> {
    const rows = await db.query<DeclarationReferences>(
      `SELECT (SELECT id FROM members WHERE tenant_id = $1 AND member_id = $2) AS member_pk,
              holder.id AS policy_holder_id,
              (SELECT id FROM policies
               WHERE tenant_id = $1 AND policy_holder_id = holder.id AND policy_no = $4) AS policy_id
       FROM (SELECT (SELECT id FROM policy_holders WHERE tenant_id = $1 AND ph_erp_id = $3) AS id) AS holder`,
      [tenantId, keys.memberId, keys.phErpId, keys.policyNo],
    );
    return rows[0] ?? { member_pk: null, policy_holder_id: null, policy_id: null };
  },

  async insert(tx: Queryable, tenantId: number, declaration: NewHealthDeclaration): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO health_declarations
         (tenant_id, member_pk, policy_holder_id, policy_id, caption, caption2, declaration_type, declaration_value)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        tenantId,
        declaration.member_pk,
        declaration.policy_holder_id,
        declaration.policy_id,
        declaration.caption,
        declaration.caption2,
        declaration.declaration_type,
        declaration.declaration_value,
      ],
    );
    return (rows[0] as { id: number }).id;
  },
};
