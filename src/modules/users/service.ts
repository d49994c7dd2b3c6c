import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { hashPassword } from "./passwords.js";
import { type UserRow, userRepo } from "./repo.js";
import type { UserCreateInput, UserFilter, UserUpdateInput } from "./schemas.js";
import { attemptRepo } from "./sign-in-attempts.js";

export { signIn } from "./sign-in.js";
export { createSignInGuards, sourceOf } from "./sign-in-guards.js";

export async function createUser(db: Db, actor: TenantActor, input: UserCreateInput): Promise<UserRow> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const user = await userRepo.insert(tx, actor.tenantId, {
          username: input.username,
          name: input.name ?? null,
          email: input.email ?? null,
          password_hash: passwordHash,
        });
        await recordAudit(tx, actor, { action: "user.create", entityType: "user", entityKey: user.username });
        return user;
      }),
    { users_username_key: () => new AppError("E_CONFLICT_409", `User ${input.username} already exists`) },
  );
}

export function findUsers(db: Db, tenantId: number, filter: UserFilter) {
  return userRepo.findPage(db, tenantId, filter);
}

/**
 * PATCH /user/:username (beyond the spec): a new password, name, e-mail or active flag, or `unlock`. A new
 * password or deactivation ends the user's console sessions; a new password or `unlock` lifts the user's
 * sign-in lockouts from every source.
 */
export async function updateUser(db: Db, actor: TenantActor, username: string, input: UserUpdateInput) {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const found = await userRepo.update(tx, actor.tenantId, username, {
      name: input.name,
      email: input.email,
      active: input.active,
      ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
    });
    if (!found) throw new AppError("E_USER_NOT_FOUND_404", `User ${username} not found`);
    if (passwordHash !== undefined || input.unlock === true)
      await attemptRepo.clearUser(tx, actor.tenantId, username);
    await recordAudit(tx, actor, {
      action: "user.update",
      entityType: "user",
      entityKey: username,
      // what changed, never the password itself
      details: {
        fields: Object.keys(input).filter((field) => field !== "password"),
        password: passwordHash !== undefined,
      },
    });
  });
}

/** sign-in counts untouched for a day and locking no one out are forgotten; answers how many */
export function forgetStaleSignInAttempts(db: Db, now: Date): Promise<number> {
  return attemptRepo.deleteStale(db, now);
}
