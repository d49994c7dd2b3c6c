import type { Queryable } from "./db.js";

/** escapes LIKE wildcards so user text matches literally inside `'%' || $n || '%'` */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** "a, b" -> "t.a, t.b": a column list read through a table alias */
export function qualify(columns: string, alias: string): string {
  return columns
    .split(",")
    .map((column) => `${alias}.${column.trim()}`)
    .join(", ");
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

export interface PageRequest {
  /** a column of the matching rows to page by */
  orderBy: string;
  limit: number;
  skip: number;
  /**
   * a scalar subquery that yields the count without reading the matches (a counter table); the page then
   * reads only its own rows through an index. Omitted: the matches are read once and counted.
   */
  countFrom?: string;
}

/**
 * One page of `matches` (a SELECT with parameters $1..$n) and the number of all its rows, in one round
 * trip, past the last page too: the count comes on a row whose page columns are null. Every paged list
 * uses it, so none pays a second query for its total_count.
 */
export async function selectPage<T extends object>(
  db: Queryable,
  matches: string,
  params: readonly unknown[],
  page: PageRequest,
): Promise<{ total: number; rows: T[] }> {
  const limit = `$${params.length + 1}`;
  const offset = `$${params.length + 2}`;
  const rows = await db.query<T & { page_total: number; in_page: boolean | null }>(
    `WITH matches AS ${page.countFrom ? "" : "MATERIALIZED"} (${matches})
     SELECT counted.n AS page_total, listed.*
     FROM (SELECT ${page.countFrom ? `(${page.countFrom})` : "count(*)"} AS n ${page.countFrom ? "" : "FROM matches"}) AS counted
     LEFT JOIN (SELECT matches.*, TRUE AS in_page FROM matches
                ORDER BY ${page.orderBy} LIMIT ${limit} OFFSET ${offset}) AS listed ON TRUE
     ORDER BY listed.${page.orderBy}`,
    [...params, page.limit, page.skip],
  );
  return {
    total: rows[0]?.page_total ?? 0,
    rows: rows.flatMap(({ page_total: _total, in_page, ...row }) => (in_page ? [row as unknown as T] : [])),
  };
}

/** a statement that only reads (a SELECT): several may share one message, one implicit transaction */
export function isRead(text: string): boolean {
  return /^\s*SELECT\b/i.test(text);
}

type Scalar = string | number | boolean | bigint | Date | null | undefined;

/**
 * A parameter as an SQL literal: a quoted string, as libpq's PQescapeLiteral writes it (E'' when a
 * backslash occurs, so the result does not depend on standard_conforming_strings). Numbers and booleans
 * are quoted too, so each takes the type of the parameter it fills, as a bound value's text does.
 * Undefined when the value is not a plain scalar (arrays, objects, NUL bytes, NaN): those go through bind
 * parameters as usual.
 */
export function sqlLiteral(value: Scalar | unknown): string | undefined {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "'true'" : "'false'";
  if (typeof value === "bigint") return `'${value.toString()}'`;
  if (typeof value === "number") return Number.isFinite(value) ? `'${String(value)}'` : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : `'${value.toISOString()}'`;
  if (typeof value !== "string" || value.includes("\0")) return undefined;
  const quoted = `'${value.replaceAll("'", "''")}'`;
  return value.includes("\\") ? `E${quoted.replaceAll("\\", "\\\\")}` : quoted;
}
