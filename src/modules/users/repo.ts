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
  password_hash: string | null;
  active: boolean;
  locked_until: Date | null;
}

/** consecutive failed sign-ins that lock a user out, and for how long */
export const LOCKOUT = { failures: 5, minutes: 15 } as const;

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

  /** changes what is given (undefined: kept); false when the tenant has no such user */
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
         failed_sign_ins = CASE WHEN $5::text IS NULL THEN failed_sign_ins ELSE 0 END,
         locked_until = CASE WHEN $5::text IS NULL THEN locked_until END
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

  async findForSignIn(db: Queryable, tenantId: number, username: string): Promise<SignInRow | undefined> {
    const rows = await db.query<SignInRow>(
      `SELECT ${COLUMNS}, password_hash, active, locked_until FROM users WHERE tenant_id = $1 AND username = $2`,
      [tenantId, username],
    );
    return rows[0];
  },

  /** a sign-in's outcome: success clears the failures; the LOCKOUT.failures-th failure in a row locks */
  async recordSignIn(db: Queryable, userId: number, succeeded: boolean, now: Date): Promise<void> {
    if (succeeded)
      await db.query("UPDATE users SET failed_sign_ins = 0, locked_until = NULL WHERE id = $1", [userId]);
    else
      await db.query(
        `UPDATE users SET failed_sign_ins = failed_sign_ins + 1,
           locked_until = CASE WHEN failed_sign_ins + 1 >= ${LOCKOUT.failures}
             THEN $2::timestamptz + make_interval(mins => ${LOCKOUT.minutes}) ELSE locked_until END
         WHERE id = $1`,
        [userId, now],
      );
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
