import type { Queryable } from "../../platform/db/db.js";
import { setClause } from "../../platform/db/sql.js";

export interface PolicyHolderRow {
  ph_erp_id: string;
  name: string;
  insurance_type: string | null;
  province: string | null;
  registration_number: string | null;
}

const COLUMNS = "ph_erp_id, name, insurance_type, province, registration_number";

export const policyHolderRepo = {
  async insert(tx: Queryable, tenantId: number, holder: PolicyHolderRow): Promise<PolicyHolderRow> {
    const rows = await tx.query<PolicyHolderRow>(
      `INSERT INTO policy_holders (tenant_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [
        tenantId,
        holder.ph_erp_id,
        holder.name,
        holder.insurance_type,
        holder.province,
        holder.registration_number,
      ],
    );
    return rows[0] as PolicyHolderRow;
  },

  async update(
    tx: Queryable,
    tenantId: number,
    phErpId: string,
    changes: Partial<PolicyHolderRow>,
  ): Promise<PolicyHolderRow | undefined> {
    const set = setClause(changes, 3);
    if (set === undefined) return policyHolderRepo.findByErpId(tx, tenantId, phErpId);
    const rows = await tx.query<PolicyHolderRow>(
      `UPDATE policy_holders SET ${set.sql}, updated_at = now() WHERE tenant_id = $1 AND ph_erp_id = $2 RETURNING ${COLUMNS}`,
      [tenantId, phErpId, ...set.values],
    );
    return rows[0];
  },

  async findByErpId(db: Queryable, tenantId: number, phErpId: string): Promise<PolicyHolderRow | undefined> {
    const rows = await db.query<PolicyHolderRow>(
      `SELECT ${COLUMNS} FROM policy_holders WHERE tenant_id = $1 AND ph_erp_id = $2`,
      [tenantId, phErpId],
    );
    return rows[0];
  },
};
