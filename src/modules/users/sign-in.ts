import type { Db } from "../../platform/db/db.js";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.js";
import { userRepo } from "./repo.js";
import { type AttemptKey, attemptRepo } from "./sign-in-attempts.js";
import type { SignInGuards } from "./sign-in-guards.js";

export interface SignInAttempt {
  /** the tenant's name as the path gave it, whether or not there is such a tenant */
  tenant: string;
  username: string;
  password: string;
  /** where the attempt came from (sourceOf) */
  source: string;
}

export interface SignedInUser {
  id: number;
  tenantId: number;
  username: string;
  name: string | null;
  /** the epoch a session must carry to stay valid */
  sessionEpoch: number;
}

export type SignInOutcome =
  | { kind: "signed-in"; user: SignedInUser }
  /** wrong password, unknown tenant or user, no password, inactive: one answer for all */
  | { kind: "refused" }
  /** turned away before any password was checked: try again in `retryAfter` seconds */
  | { kind: "throttled"; retryAfter: number };

const REFUSED: SignInOutcome = { kind: "refused" };
const throttled = (retryAfter: number): SignInOutcome => ({ kind: "throttled", retryAfter });

/**
 * A reviewer's sign-in (README "Reviewer console"). In this order, so guessing costs the guesser: the
 * source's rate (memory); the attempt counted for its tenant, username and source in one statement, refused
 * when that source is locked or already has its allowance counted (database); one attempt checked at a time
 * per source; the username's rate across sources and a bounded number of hashes at once (memory). Only then
 * is the password hashed, and success still needs the source not to have been locked meanwhile, so a burst
 * of guesses never lets one through past the allowance. An unknown tenant or user costs the same work.
 */
export async function signIn(
  db: Db,
  guards: SignInGuards,
  attempt: SignInAttempt,
  now: Date,
): Promise<SignInOutcome> {
  const sourceWait = guards.perSource.take(attempt.source);
  if (sourceWait > 0) return throttled(sourceWait);
  const key: AttemptKey = { tenant: attempt.tenant, username: attempt.username, source: attempt.source };
  const lockedUntil = await attemptRepo.claim(db, key, now);
  if (lockedUntil !== undefined) return throttled(secondsUntil(lockedUntil, now));
  if (guards.checking.has(attempt.source)) {
    // counted and not checked: a source's burst spends its allowance without costing a hash
    await attemptRepo.failed(db, key, now);
    return throttled(1);
  }
  const userWait = guards.perUser.take(`${attempt.tenant}/${attempt.username}`);
  const slot = userWait > 0 ? undefined : guards.hashing.acquire();
  if (slot === undefined) {
    // turned away for others' load, not for this attempt: it does not count against the user
    await attemptRepo.withdraw(db, key);
    return throttled(Math.max(1, userWait));
  }
  guards.checking.add(attempt.source);
  const release = await slot;
  try {
    return await check(db, attempt, key, now);
  } finally {
    release();
    guards.checking.delete(attempt.source);
  }
}

async function check(db: Db, attempt: SignInAttempt, key: AttemptKey, now: Date): Promise<SignInOutcome> {
  // the same query for an unknown tenant, so its answer takes as long
  const user = await userRepo.findForSignIn(db, attempt.tenant, attempt.username);
  const matches = await verifyPassword(attempt.password, user?.password_hash ?? null);
  if (user === undefined || user.password_hash === null || !matches || !user.active) {
    await attemptRepo.failed(db, key, now);
    return REFUSED;
  }
  if (!(await attemptRepo.succeeded(db, key, now))) return REFUSED;
  if (needsRehash(user.password_hash))
    await userRepo.replaceHash(db, user.id, user.password_hash, await hashPassword(attempt.password));
  return {
    kind: "signed-in",
    user: {
      id: user.id,
      tenantId: user.tenant_id,
      username: user.username,
      name: user.name,
      sessionEpoch: user.session_epoch,
    },
  };
}

const secondsUntil = (until: Date, now: Date) =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
