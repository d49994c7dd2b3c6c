import { randomBytes } from "node:crypto";
import { hashSecret } from "../../platform/auth/credentials.js";
import type { Db } from "../../platform/db/db.js";
import { purgeJob } from "../../platform/jobs/housekeeping.js";
import { forgetStaleSignInAttempts } from "../users/service.js";
import { type ConsoleSession, sessionRepo } from "./session-repo.js";

/** how long a console session lasts from sign-in */
export const SESSION_HOURS = 12;
export const SESSION_COOKIE = "mizan_console";

/**
 * A new session for a signed-in user, under the user's session epoch (a new password or deactivation ends
 * it): the cookie's token (kept only hashed) and its CSRF token.
 */
export async function startSession(
  db: Db,
  user: { tenantId: number; id: number; sessionEpoch: number },
  now: Date,
) {
  const token = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(24).toString("base64url");
  await sessionRepo.insert(db, {
    tokenHash: hashSecret(token),
    tenantId: user.tenantId,
    userId: user.id,
    userEpoch: user.sessionEpoch,
    csrfToken,
    expiresAt: new Date(now.getTime() + SESSION_HOURS * 3600_000),
  });
  return token;
}

export function findSession(
  db: Db,
  tenantId: number,
  token: string,
  now: Date,
): Promise<ConsoleSession | undefined> {
  return sessionRepo.find(db, tenantId, hashSecret(token), now);
}

export function endSession(db: Db, token: string): Promise<void> {
  return sessionRepo.delete(db, hashSecret(token));
}

/** every hour: sessions past their end, and sign-in counts untouched for a day, are forgotten */
export const consoleSessionRetentionJob = purgeJob(
  "console-session-retention",
  "37 * * * *",
  async (context) => {
    const now = new Date();
    const purged = await sessionRepo.deleteExpired(context.db, now);
    if (purged > 0) context.log.info({ purged }, "forgot expired console sessions");
    const attempts = await forgetStaleSignInAttempts(context.db, now);
    if (attempts > 0) context.log.info({ attempts }, "forgot stale sign-in counts");
  },
);
