import type { Queryable } from "../../platform/db/db.js";

/** one counter of sign-in attempts: the tenant and username as posted, and the source they came from */
export interface AttemptKey {
  tenant: string;
  username: string;
  source: string;
}

/** failures of one username from one source that lock that source out, for how long */
export const LOCKOUT = { failures: 5, minutes: 15 } as const;

const KEY = "tenant = $1 AND username = $2 AND source = $3";
const keyParams = (key: AttemptKey) => [key.tenant, key.username, key.source];
const LOCK_END = `$4::timestamptz + make_interval(mins => ${LOCKOUT.minutes})`;

/** sign_in_attempts: the users module's table of attempts, counted before any password is checked */
export const attemptRepo = {
  /**
   * Counts an attempt, in one statement so concurrent attempts each see the others: allowed (undefined)
   * while fewer than LOCKOUT.failures are counted and the source is not locked; otherwise the lock (set now
   * if it was not) and nothing is checked. A lock that ended, or a count untouched for LOCKOUT.minutes,
   * starts over.
   */
  async claim(db: Queryable, key: AttemptKey, now: Date): Promise<Date | undefined> {
    const stale = `(a.locked_until <= $4::timestamptz OR (a.locked_until IS NULL
      AND a.updated_at <= $4::timestamptz - make_interval(mins => ${LOCKOUT.minutes})))`;
    const rows = await db.query<{ locked_until: Date | null }>(
      `INSERT INTO sign_in_attempts AS a (tenant, username, source, failures, locked_until, updated_at)
       VALUES ($1, $2, $3, 1, NULL, $4)
       ON CONFLICT (tenant, username, source) DO UPDATE SET
         failures = CASE WHEN ${stale} THEN 1 ELSE a.failures + 1 END,
         locked_until = CASE WHEN ${stale} THEN NULL
           WHEN a.failures >= ${LOCKOUT.failures} THEN COALESCE(a.locked_until, ${LOCK_END})
           ELSE a.locked_until END,
         updated_at = $4
       RETURNING locked_until`,
      [...keyParams(key), now],
    );
    return rows[0]?.locked_until ?? undefined;
  },

  /** the attempt failed: it stays counted, and the LOCKOUT.failures-th locks */
  async failed(db: Queryable, key: AttemptKey, now: Date): Promise<void> {
    await db.query(
      `UPDATE sign_in_attempts SET updated_at = $4, locked_until = CASE WHEN failures >= ${LOCKOUT.failures}
         THEN COALESCE(locked_until, ${LOCK_END}) ELSE locked_until END
       WHERE ${KEY}`,
      [...keyParams(key), now],
    );
  },

  /** the password was right: true (and the count cleared) unless the source was locked meanwhile */
  async succeeded(db: Queryable, key: AttemptKey, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE sign_in_attempts SET failures = 0, updated_at = $4
       WHERE ${KEY} AND (locked_until IS NULL OR locked_until <= $4) RETURNING source`,
      [...keyParams(key), now],
    );
    return rows.length > 0;
  },

  /** the attempt was turned away before its password was checked for a reason of capacity: not counted */
  async withdraw(db: Queryable, key: AttemptKey): Promise<void> {
    await db.query(
      `UPDATE sign_in_attempts SET failures = GREATEST(failures - 1, 0) WHERE ${KEY} AND locked_until IS NULL`,
      keyParams(key),
    );
  },

  /** a user's counts and locks from every source (the administrator's unlock, a new password) */
  async clearUser(db: Queryable, tenantId: number, username: string): Promise<void> {
    await db.query(
      "DELETE FROM sign_in_attempts WHERE tenant = (SELECT name FROM tenants WHERE id = $1) AND username = $2",
      [tenantId, username],
    );
  },

  /** counts that no longer matter: untouched for a day and not locked */
  async deleteStale(db: Queryable, now: Date): Promise<number> {
    const rows = await db.query(
      `DELETE FROM sign_in_attempts WHERE updated_at < $1::timestamptz - interval '1 day'
         AND (locked_until IS NULL OR locked_until < $1) RETURNING source`,
      [now],
    );
    return rows.length;
  },
};
