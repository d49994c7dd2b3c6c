import type { Queryable } from "./db.js";

/** escapes LIKE wildcards so user text matches literally inside `'%' || $n || '%'` */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Changes only the fields sent (undefined means "not sent") of the tenant's row whose `key` column equals
 * `keyValue`, and returns the row as `columns` selects it; with nothing to change it just reads the row.
 * Only `writable` columns are ever named in SQL, whatever keys `changes` carries. Undefined: no such row.
 */
export async function updateTenantRow<T>(
  tx: Queryable,
  target: { table: string; key: string; columns: string; writable: readonly string[] },
  tenantId: number,
  keyValue: unknown,
  changes: Record<string, unknown>,
): Promise<T | undefined> {
  const entries = Object.entries(changes).filter(
    ([column, value]) => value !== undefined && target.writable.includes(column),
  );
  const where = `WHERE tenant_id = $1 AND ${target.key} = $2`;
  const sql =
    entries.length === 0
      ? `SELECT ${target.columns} FROM ${target.table} ${where}`
      : `UPDATE ${target.table} SET ${entries.map(([column], index) => `${column} = $${index + 3}`).join(", ")},
           updated_at = now() ${where} RETURNING ${target.columns}`;
  const rows = await tx.query<T>(sql, [tenantId, keyValue, ...entries.map(([, value]) => value)]);
  return rows[0];
}
