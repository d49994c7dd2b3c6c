import type { Queryable } from "../../platform/db/db.js";
import { selectPage } from "../../platform/db/sql.js";

export interface HistoryRow {
  kind: "CLAIM" | "PREAUTH";
  reference: string;
  service_date: Date;
  status: string;
  approved: boolean;
  provider_cchi_no: string | null;
  diagnosis_codes: string[];
  items: Record<string, unknown>[];
}

export const memberHistoryRepo = {
  /** inserts or replaces records by (kind, reference); returns how many were new */
  async upsertMany(
    tx: Queryable,
    tenantId: number,
    memberId: string,
    records: readonly (Omit<HistoryRow, "diagnosis_codes" | "items"> & {
      diagnosis_codes: string;
      items: string;
    })[],
  ): Promise<number> {
    const rows = await tx.query<{ inserted: boolean }>(
      `INSERT INTO member_history (tenant_id, member_id, kind, reference, service_date, status, approved,
         provider_cchi_no, diagnosis_codes, items)
       SELECT $1, $2, r.kind, r.reference, r.service_date, r.status, r.approved, r.provider_cchi_no,
         ARRAY(SELECT json_array_elements_text(r.diagnosis_codes::json)), r.items::json
       FROM unnest($3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::boolean[], $8::text[], $9::text[],
         $10::text[]) AS r (kind, reference, service_date, status, approved, provider_cchi_no, diagnosis_codes, items)
       ON CONFLICT (tenant_id, kind, reference) DO UPDATE SET member_id = EXCLUDED.member_id,
         service_date = EXCLUDED.service_date, status = EXCLUDED.status, approved = EXCLUDED.approved,
         provider_cchi_no = EXCLUDED.provider_cchi_no, diagnosis_codes = EXCLUDED.diagnosis_codes,
         items = EXCLUDED.items, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [
        tenantId,
        memberId,
        records.map((r) => r.kind),
        records.map((r) => r.reference),
        records.map((r) => r.service_date),
        records.map((r) => r.status),
        records.map((r) => r.approved),
        records.map((r) => r.provider_cchi_no),
        records.map((r) => r.diagnosis_codes),
        records.map((r) => r.items),
      ],
    );
    return rows.filter((row) => row.inserted).length;
  },

  findPage(db: Queryable, tenantId: number, memberId: string, page: { limit: number; skip: number }) {
    return selectPage<HistoryRow & { id: number }>(
      db,
      `SELECT id, kind, reference, service_date, status, approved, provider_cchi_no, diagnosis_codes, items
       FROM member_history WHERE tenant_id = $1 AND member_id = $2`,
      [tenantId, memberId],
      { orderBy: "id", ...page },
    );
  },
};
