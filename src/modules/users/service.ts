import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { type UserRow, userRepo } from "./repo.js";
import type { UserCreateInput, UserFilter } from "./schemas.js";

export function createUser(db: Db, actor: TenantActor, input: UserCreateInput): Promise<UserRow> {
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const user = await userRepo.insert(tx, actor.tenantId, {
          username: input.username,
          name: input.name ?? null,
          email: input.email ?? null,
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
