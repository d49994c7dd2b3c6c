import type { Queryable } from "../../platform/db/db.js";
import { updateTenantRow } from "../../platform/db/sql.js";

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

  update(tx: Queryable, tenantId: number, phErpId: string, changes: Partial<PolicyHolderRow>) {
    const writable = ["name", "insurance_type", "province", "registration_number"];
    const target = { table: "policy_holders", key: "ph_erp_id", columns: COLUMNS, writable };
    return updateTenantRow<PolicyHolderRow>(tx, target, tenantId, phErpId, changes);
  },

  async findByErpId(db: Queryable, tenantId: number, phErpId: string): Promise<PolicyHolderRow | undefined> {
    const rows = await db.query<PolicyHolderRow>(
      `SELECT ${COLUMNS} FROM policy_holders WHERE tenant_id = $1 AND ph_erp_id = $2`,
      [tenantId, phErpId],
    );
    return rows[0];
  },
};
