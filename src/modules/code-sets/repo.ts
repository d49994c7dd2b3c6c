import type { Queryable } from "../../platform/db/db.js";
import type { CodeSetEntry } from "../../reference/code-set-file.js";

/** rows per INSERT: large enough to be fast, small enough to keep PGlite's heap modest */
const CHUNK = 5000;

export const codeSetRepo = {
  async ensureSet(tx: Queryable, tenantId: number, system: string): Promise<void> {
    await tx.query(
      `INSERT INTO code_sets (tenant_id, system, entry_count) VALUES ($1, $2, 0) ON CONFLICT (tenant_id, system) DO NOTHING`,
      [tenantId, system],
    );
  },

  async clear(tx: Queryable, tenantId: number, system: string): Promise<void> {
    await tx.query("DELETE FROM code_set_entries WHERE tenant_id = $1 AND system = $2", [tenantId, system]);
  },

  /** upserts entries, whose codes must be distinct */
  async upsertEntries(
    tx: Queryable,
    tenantId: number,
    system: string,
    entries: CodeSetEntry[],
  ): Promise<void> {
    for (let start = 0; start < entries.length; start += CHUNK) {
      const chunk = entries.slice(start, start + CHUNK);
      await tx.query(
        `INSERT INTO code_set_entries (tenant_id, system, code, description)
         SELECT $1, $2, code, description FROM unnest($3::text[], $4::text[]) AS t (code, description)
         ON CONFLICT (tenant_id, system, code) DO UPDATE SET description = EXCLUDED.description`,
        [tenantId, system, chunk.map((e) => e.code), chunk.map((e) => e.description)],
      );
    }
  },

  /** recounts and stamps the set; returns its size */
  async refreshCount(tx: Queryable, tenantId: number, system: string): Promise<number> {
    const rows = await tx.query<{ entry_count: number }>(
      `UPDATE code_sets SET updated_at = now(),
         entry_count = (SELECT count(*) FROM code_set_entries WHERE tenant_id = $1 AND system = $2)
       WHERE tenant_id = $1 AND system = $2 RETURNING entry_count`,
      [tenantId, system],
    );
    return rows[0]?.entry_count ?? 0;
  },

  /** one round trip: whether the tenant loaded the system at all, and the code's description if present */
  async lookup(
    db: Queryable,
    tenantId: number,
    system: string,
    code: string,
  ): Promise<{ loaded: boolean; description: string | null }> {
    const rows = await db.query<{ loaded: boolean; description: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM code_sets WHERE tenant_id = $1 AND system = $2) AS loaded,
              (SELECT description FROM code_set_entries WHERE tenant_id = $1 AND system = $2 AND code = $3) AS description`,
      [tenantId, system, code],
    );
    return rows[0] ?? { loaded: false, description: null };
  },

  list(db: Queryable, tenantId: number) {
    return db.query<{ system: string; entry_count: number; updated_at: Date }>(
      "SELECT system, entry_count, updated_at FROM code_sets WHERE tenant_id = $1 ORDER BY system",
      [tenantId],
    );
  },
};
