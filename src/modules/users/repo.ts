import type { Queryable } from "../../platform/db/db.js";
import { likeContains, selectPage } from "../../platform/db/sql.js";

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

  findPage(db: Queryable, tenantId: number, filter: { username?: string; limit: number; skip: number }) {
    const params: unknown[] = [tenantId];
    let matches = `SELECT ${COLUMNS} FROM users WHERE tenant_id = $1`;
    if (filter.username) {
      params.push(likeContains(filter.username));
      matches += " AND username ILIKE $2";
    }
    return selectPage<UserRow>(db, matches, params, {
      orderBy: "id",
      limit: filter.limit,
      skip: filter.skip,
    });
  },
};
