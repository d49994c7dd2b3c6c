import type { Queryable } from "../../platform/db/db.js";
import { likeContains } from "../../platform/db/sql.js";

export interface UserRow {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
}

const COLUMNS = "id, username, name, email";

export const userRepo = {
  async insert(tx: Queryable, tenantId: number, user: Omit<UserRow, "id">): Promise<UserRow> {
    const rows = await tx.query<UserRow>(
      `INSERT INTO users (tenant_id, username, name, email) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [tenantId, user.username, user.name, user.email],
    );
    return rows[0] as UserRow;
  },

  async findByUsername(db: Queryable, tenantId: number, username: string): Promise<UserRow | undefined> {
    const rows = await db.query<UserRow>(
      `SELECT ${COLUMNS} FROM users WHERE tenant_id = $1 AND username = $2`,
      [tenantId, username],
    );
    return rows[0];
  },

  async findPage(
    db: Queryable,
    tenantId: number,
    filter: { username?: string; limit: number; skip: number },
  ): Promise<{ total: number; rows: UserRow[] }> {
    const params: unknown[] = [tenantId];
    let condition = "tenant_id = $1";
    if (filter.username) {
      params.push(likeContains(filter.username));
      condition += " AND username ILIKE $2";
    }
    const rows = await db.query<UserRow>(
      `SELECT ${COLUMNS} FROM users WHERE ${condition} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.skip],
    );
    const count = await db.query<{ total: number }>(
      `SELECT count(*) AS total FROM users WHERE ${condition}`,
      params,
    );
    return { total: count[0]?.total ?? 0, rows };
  },
};
