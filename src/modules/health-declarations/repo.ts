import type { Queryable } from "../../platform/db/db.js";

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
