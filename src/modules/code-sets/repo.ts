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

  /** lookup for many codes in one round trip: whether the set is loaded, and the codes found with their descriptions */
  async lookupMany(
    db: Queryable,
    tenantId: number,
    system: string,
    codes: readonly string[],
  ): Promise<{ loaded: boolean; found: Map<string, string> }> {
    const rows = await db.query<{ loaded: boolean; code: string | null; description: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM code_sets WHERE tenant_id = $1 AND system = $2) AS loaded, e.code, e.description
       FROM (SELECT 1) AS one
       LEFT JOIN code_set_entries e ON e.tenant_id = $1 AND e.system = $2
         AND e.code IN (SELECT json_array_elements_text($3::json))`,
      [tenantId, system, JSON.stringify([...new Set(codes)])],
    );
    const found = new Map<string, string>();
    for (const row of rows) if (row.code !== null) found.set(row.code, row.description ?? "");
    return { loaded: rows[0]?.loaded ?? false, found };
  },

  list(db: Queryable, tenantId: number) {
    return db.query<{ system: string; entry_count: number; updated_at: Date }>(
      "SELECT system, entry_count, updated_at FROM code_sets WHERE tenant_id = $1 ORDER BY system",
      [tenantId],
    );
  },
};
