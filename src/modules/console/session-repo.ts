import type { Queryable } from "../../platform/db/db.js";

export interface ConsoleSession {
  user_id: number;
  username: string;
  name: string | null;
  csrf_token: string;
}

/** console_sessions: this module's table */
export const sessionRepo = {
  async insert(
    db: Queryable,
    session: {
      tokenHash: string;
      tenantId: number;
      userId: number;
      userEpoch: number;
      csrfToken: string;
      expiresAt: Date;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO console_sessions (token_hash, tenant_id, user_id, user_epoch, csrf_token, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        session.tokenHash,
        session.tenantId,
        session.userId,
        session.userEpoch,
        session.csrfToken,
        session.expiresAt,
      ],
    );
  },

  /** a live session of the tenant whose user is still active, with no new password since it started */
  async find(
    db: Queryable,
    tenantId: number,
    tokenHash: string,
    now: Date,
  ): Promise<ConsoleSession | undefined> {
    const rows = await db.query<ConsoleSession>(
      `SELECT s.user_id, u.username, u.name, s.csrf_token FROM console_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.tenant_id = $2 AND s.expires_at > $3 AND u.active
         AND s.user_epoch = u.session_epoch`,
      [tokenHash, tenantId, now],
    );
    return rows[0];
  },

  async delete(db: Queryable, tokenHash: string): Promise<void> {
    await db.query("DELETE FROM console_sessions WHERE token_hash = $1", [tokenHash]);
  },

  async deleteExpired(db: Queryable, now: Date): Promise<number> {
    const rows = await db.query("DELETE FROM console_sessions WHERE expires_at <= $1 RETURNING token_hash", [
      now,
    ]);
    return rows.length;
  },
};
