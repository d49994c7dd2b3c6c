import type { Queryable } from "../../platform/db/db.js";
import { memberRepo } from "../members/repo.js";
import { type MemberPolicyRow, patientLinkRepo } from "../policies/repo.js";

/**
 * Who and what coverage a message is about, as the payer's own data says. NPHIES names the member by the
 * Coverage's identifier (the payer's member id) and always the patient by national id, iqama or passport;
 * the policy may ride in a Coverage class (plan or group) or not at all, so it is the member's policy
 * in force on the day of service, preferring one the classes name.
 */

export interface SubjectKeys {
  /** the payer's member ids the message carries (Coverage.identifier, Coverage.subscriberId) */
  memberIds: readonly string[];
  /** the patient's identifiers (national id, iqama, passport, border number, MRN) */
  patientIds: readonly string[];
  /** the Coverage's class values (plan, group, ...): a policy number or holder code */
  classValues: readonly string[];
}

export type Subject =
  | {
      found: true;
      member: { pk: number; memberId: string; gender: "MALE" | "FEMALE"; dateOfBirth: string };
      policies: MemberPolicyRow[];
      /** the patient's other member records (the same national id, iqama or passport) */
      others: { pk: number; memberId: string }[];
    }
  | { found: false; errorCode: "1657" | "1658"; message: string };

const inForce = (row: MemberPolicyRow, day: string) =>
  row.link_status === "ACTIVE" &&
  row.policy_status === "ACTIVE" &&
  row.link_start <= day &&
  day <= row.link_end &&
  row.policy_start <= day &&
  day <= row.policy_end;

/** the member's policies, best first: named by a class and in force, in force, named, then the latest */
export function rankPolicies(rows: readonly MemberPolicyRow[], keys: SubjectKeys, day: string) {
  const named = (row: MemberPolicyRow) =>
    keys.classValues.includes(row.policy_no) || keys.classValues.includes(row.ph_erp_id);
  const score = (row: MemberPolicyRow) => (inForce(row, day) ? 2 : 0) + (named(row) ? 1 : 0);
  return [...rows].sort((a, b) => score(b) - score(a));
}

/** the policies of the member in force on `day` */
export const policiesInForce = (rows: readonly MemberPolicyRow[], day: string) =>
  rows.filter((row) => inForce(row, day));

/** the member a message names and its policies ranked for `day` (YYYY-MM-DD) */
export async function findSubject(
  db: Queryable,
  tenantId: number,
  keys: SubjectKeys,
  day: string,
): Promise<Subject> {
  // one look-up for every identifier, then the best: a member number the Coverage names, a patient
  // identifier, then anything else matched
  const found = await memberRepo.findByIdentifiers(db, tenantId, [...keys.memberIds, ...keys.patientIds]);
  const byPatient = (row: (typeof found)[number]) =>
    [row.member_id, row.national_id, row.passport].some(
      (value) => value !== null && keys.patientIds.includes(value),
    );
  const member =
    found.find((row) => keys.memberIds.includes(row.member_id)) ?? found.find(byPatient) ?? found[0];
  // NPHIES always names the patient: nobody found by any identifier is "no member found" (1658), as the
  // eligibility test case 5 answers; a member number alone (no patient identifier) is 1657
  if (member === undefined)
    return keys.patientIds.length === 0
      ? {
          found: false,
          errorCode: "1657",
          message: `Member ${keys.memberIds.join(", ")} is not a member of this payer`,
        }
      : {
          found: false,
          errorCode: "1658",
          message: `No member found with the patient's identifiers ${keys.patientIds.join(", ")}${
            keys.memberIds.length > 0 ? ` nor the member number ${keys.memberIds.join(", ")}` : ""
          }`,
        };
  const policies = rankPolicies(await patientLinkRepo.listPoliciesOfMember(db, member.pk), keys, day);
  return {
    found: true,
    member: {
      pk: member.pk,
      memberId: member.member_id,
      gender: member.gender,
      dateOfBirth: member.date_of_birth.toISOString(),
    },
    policies,
    others: found
      .filter((row) => row.pk !== member.pk && byPatient(row))
      .map((row) => ({ pk: row.pk, memberId: row.member_id })),
  };
}
