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
  /**
   * A holder known only by its ERP code, unless it exists; a holder whose name is taken by another gets its
   * ERP code with a suffix as its name (names are unique per tenant)
   */
  async insertIfMissing(tx: Queryable, tenantId: number, phErpId: string): Promise<void> {
    await tx.query(
      `INSERT INTO policy_holders (tenant_id, ph_erp_id, name)
       SELECT $1, $2, CASE WHEN EXISTS (SELECT 1 FROM policy_holders WHERE tenant_id = $1 AND name = $2)
                           THEN $2 || ' (lightweight ' || gen_random_uuid() || ')' ELSE $2 END
       ON CONFLICT (tenant_id, ph_erp_id) DO NOTHING`,
      [tenantId, phErpId],
    );
  },

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
