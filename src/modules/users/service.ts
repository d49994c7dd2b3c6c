import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { type UserRow, userRepo } from "./repo.js";
import type { UserCreateInput, UserFilter, UserUpdateInput } from "./schemas.js";

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

/** PATCH /user/:username (beyond the spec): a new password, name, e-mail or active flag */
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

/**
 * A reviewer's sign-in: the user when the password is right, the user is active, has a password and is not
 * locked out; otherwise undefined, whatever the reason, after the same work (the hash is always checked).
 */
export async function signIn(
  db: Db,
  tenantId: number,
  credentials: { username: string; password: string },
  now: Date,
): Promise<UserRow | undefined> {
  const user = await userRepo.findForSignIn(db, tenantId, credentials.username);
  const matches = await verifyPassword(credentials.password, user?.password_hash ?? null);
  if (user === undefined) return undefined;
  const locked = user.locked_until !== null && user.locked_until > now;
  const succeeded = matches && user.active && !locked;
  if (!locked) await userRepo.recordSignIn(db, user.id, succeeded, now);
  return succeeded ? { id: user.id, username: user.username, name: user.name, email: user.email } : undefined;
}
