import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { type MemberRow, memberRepo } from "./repo.js";
import type { MemberCreateInput, MemberUpdateInput } from "./schemas.js";

function birthDate(value: string, now: Date): Date {
  const date = new Date(value);
  if (date.getTime() > now.getTime()) {
    const message = "date_of_birth must not be in the future";
    throw new AppError("VALIDATION_ERROR", message, [message]);
  }
  return date;
}

export function createMember(
  db: Db,
  actor: TenantActor,
  input: MemberCreateInput,
  now = new Date(),
): Promise<MemberRow> {
  const member: MemberRow = {
    member_id: input.member_id,
    national_id: input.national_id,
    gender: input.gender,
    marital_status: input.marital_status,
    date_of_birth: birthDate(input.date_of_birth, now),
    name: input.name ?? null,
    card: input.card ?? null,
    email: input.email ?? null,
    relation: input.relation ?? null,
    passport: input.passport ?? null,
    visit_visa_number: input.visit_visa_number ?? null,
    phone_number: input.phone_number ?? null,
    address: input.address ?? null,
    nationality: input.nationality ?? null,
  };
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        // sent together: the audit row rides with the insert
        const [created] = await Promise.all([
          memberRepo.insert(tx, actor.tenantId, member),
          recordAudit(tx, actor, {
            action: "member.create",
            entityType: "member",
            entityKey: member.member_id,
          }),
        ]);
        return created;
      }),
    { members_member_id_key: () => new AppError("CONFLICT", `Member ${input.member_id} already exists`) },
  );
}

export function updateMember(
  db: Db,
  actor: TenantActor,
  memberId: string,
  input: MemberUpdateInput,
  now = new Date(),
): Promise<MemberRow> {
  const changes: Partial<MemberRow> = {
    ...input,
    date_of_birth: input.date_of_birth === undefined ? undefined : birthDate(input.date_of_birth, now),
  };
  return db.transaction(async (tx) => {
    const member = await memberRepo.update(tx, actor.tenantId, memberId, changes);
    if (member === undefined) throw new AppError("NOT_FOUND", `Member ${memberId} not found`);
    await recordAudit(tx, actor, {
      action: "member.update",
      entityType: "member",
      entityKey: memberId,
      details: { fields: Object.keys(input) },
    });
    return member;
  });
}

export async function getMember(db: Db, tenantId: number, memberId: string): Promise<MemberRow> {
  const member = await memberRepo.findByMemberId(db, tenantId, memberId);
  if (member === undefined) throw new AppError("NOT_FOUND", `Member ${memberId} not found`);
  return member;
}

/** the API's view: DATETIME strings instead of Date objects */
export function presentMember(member: MemberRow) {
  return { ...member, date_of_birth: member.date_of_birth.toISOString() };
}
