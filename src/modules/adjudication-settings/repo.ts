import type { Queryable } from "../../platform/db/db.js";
import type { EditInput } from "./schemas.js";

export const settingsRepo = {
  /** writes the fields given, keeping the others (defaults for a tenant without settings yet) */
  async upsert(tx: Queryable, tenantId: number, changes: Record<string, number | undefined>): Promise<void> {
    const columns = [
      "auto_approval_threshold",
      "follow_up_days",
      "duplicate_window_days",
      "lightweight_retention_days",
      "fwa_flag_threshold",
    ];
    const given = columns.filter((column) => changes[column] !== undefined);
    if (given.length === 0) return;
    await tx.query(
      `INSERT INTO tenant_settings (tenant_id, ${given.join(", ")}) VALUES ($1, ${given.map((_c, i) => `$${i + 2}`).join(", ")})
       ON CONFLICT (tenant_id) DO UPDATE SET ${given.map((column) => `${column} = EXCLUDED.${column}`).join(", ")},
         updated_at = now()`,
      [tenantId, ...given.map((column) => changes[column])],
    );
  },
};

/** the default when a tenant set none */
export const DEFAULT_FWA_FLAG_THRESHOLD = 0.5;

/** the batch screening's flag threshold of a tenant */
export async function fwaFlagThreshold(db: Queryable, tenantId: number): Promise<number> {
  const rows = await db.query<{ fwa_flag_threshold: string }>(
    "SELECT fwa_flag_threshold::text FROM tenant_settings WHERE tenant_id = $1",
    [tenantId],
  );
  return rows[0] === undefined ? DEFAULT_FWA_FLAG_THRESHOLD : Number(rows[0].fwa_flag_threshold);
}

export const diagnosisEditRepo = {
  async clear(tx: Queryable, tenantId: number): Promise<void> {
    await tx.query("DELETE FROM diagnosis_edits WHERE tenant_id = $1", [tenantId]);
  },

  async upsertMany(
    tx: Queryable,
    tenantId: number,
    edits: readonly (EditInput & { code: string })[],
  ): Promise<void> {
    for (let start = 0; start < edits.length; start += 5_000) {
      const chunk = edits.slice(start, start + 5_000);
      await tx.query(
        `INSERT INTO diagnosis_edits (tenant_id, code, sex, min_age, max_age, maternity, newborn)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::boolean[], $7::boolean[])
         ON CONFLICT (tenant_id, code) DO UPDATE SET sex = EXCLUDED.sex, min_age = EXCLUDED.min_age,
           max_age = EXCLUDED.max_age, maternity = EXCLUDED.maternity, newborn = EXCLUDED.newborn`,
        [
          tenantId,
          chunk.map((e) => e.code),
          chunk.map((e) => e.sex ?? null),
          chunk.map((e) => e.min_age ?? null),
          chunk.map((e) => e.max_age ?? null),
          chunk.map((e) => e.maternity ?? false),
          chunk.map((e) => e.newborn ?? false),
        ],
      );
    }
  },
};
