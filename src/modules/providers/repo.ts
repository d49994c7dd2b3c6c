import type { Queryable } from "../../platform/db/db.js";
import { updateTenantRow } from "../../platform/db/sql.js";

export interface ProviderRow {
  internal_id: number;
  cchi_no: string;
  name: string;
  nphies_id: string | null;
  phone_number: string | null;
  city: string;
  type: string | null;
  lng: string | null;
  lat: string | null;
}

export type ProviderFields = Omit<ProviderRow, "internal_id">;

const COLUMNS = "id AS internal_id, cchi_no, name, nphies_id, phone_number, city, type, lng, lat";

export const providerRepo = {
  async insert(tx: Queryable, tenantId: number, provider: ProviderFields): Promise<ProviderRow> {
    const rows = await tx.query<ProviderRow>(
      `INSERT INTO medical_providers (tenant_id, cchi_no, name, nphies_id, phone_number, city, type, lng, lat)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        tenantId,
        provider.cchi_no,
        provider.name,
        provider.nphies_id,
        provider.phone_number,
        provider.city,
        provider.type,
        provider.lng,
        provider.lat,
      ],
    );
    return rows[0] as ProviderRow;
  },

  update(tx: Queryable, tenantId: number, cchiNo: string, changes: Partial<ProviderFields>) {
    const writable = ["cchi_no", "name", "nphies_id", "phone_number", "city", "type", "lng", "lat"];
    const target = { table: "medical_providers", key: "cchi_no", columns: COLUMNS, writable };
    return updateTenantRow<ProviderRow>(tx, target, tenantId, cchiNo, changes);
  },

  async findByCchiNo(db: Queryable, tenantId: number, cchiNo: string): Promise<ProviderRow | undefined> {
    const rows = await db.query<ProviderRow>(
      `SELECT ${COLUMNS} FROM medical_providers WHERE tenant_id = $1 AND cchi_no = $2`,
      [tenantId, cchiNo],
    );
    return rows[0];
  },
};
