import type { Queryable } from "../../platform/db/db.js";
import { likeContains, selectPage } from "../../platform/db/sql.js";

export interface UserRow {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
}

const COLUMNS = "id, username, name, email";

/** what signing in reads of a user */
export interface SignInRow extends UserRow {
  tenant_id: number;
  password_hash: string | null;
  active: boolean;
  session_epoch: number;
}

export const userRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    user: Omit<UserRow, "id"> & { password_hash: string | null },
  ): Promise<UserRow> {
    const rows = await tx.query<UserRow>(
      `INSERT INTO users (tenant_id, username, name, email, password_hash) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${COLUMNS}`,
      [tenantId, user.username, user.name, user.email, user.password_hash],
    );
    return rows[0] as UserRow;
  },

  /**
   * Changes what is given (undefined: kept); a new password or deactivation moves the session epoch on,
   * which ends the user's console sessions. False when the tenant has no such user.
   */
  async update(
    tx: Queryable,
    tenantId: number,
    username: string,
    fields: {
      name?: string | undefined;
      email?: string | undefined;
      password_hash?: string;
      active?: boolean | undefined;
    },
  ): Promise<boolean> {
    const rows = await tx.query(
      `UPDATE users SET name = COALESCE($3, name), email = COALESCE($4, email),
         password_hash = COALESCE($5, password_hash), active = COALESCE($6, active),
         session_epoch = session_epoch + CASE WHEN $5::text IS NOT NULL OR $6::boolean = false THEN 1 ELSE 0 END
       WHERE tenant_id = $1 AND username = $2 RETURNING id`,
      [
        tenantId,
        username,
        fields.name ?? null,
        fields.email ?? null,
        fields.password_hash ?? null,
        fields.active ?? null,
      ],
    );
    return rows.length > 0;
  },

  /** the user of the tenant named as the sign-in form's path names it: one query, for an unknown tenant too */
  async findForSignIn(db: Queryable, tenantName: string, username: string): Promise<SignInRow | undefined> {
    const rows = await db.query<SignInRow>(
      `SELECT ${COLUMNS}, tenant_id, password_hash, active, session_epoch FROM users
       WHERE tenant_id = (SELECT id FROM tenants WHERE name = $1) AND username = $2`,
      [tenantName, username],
    );
    return rows[0];
  },

  /** the same password hashed at today's cost; kept only if no new password was set meanwhile */
  async replaceHash(db: Queryable, userId: number, previous: string, next: string): Promise<void> {
    await db.query("UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2", [
      userId,
      previous,
      next,
    ]);
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
