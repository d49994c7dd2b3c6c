import type { Queryable } from "../../platform/db/db.js";
import { type MemberForAdjudication, memberRepo } from "../members/repo.js";
import { type PolicyRow, policyRepo } from "../policies/repo.js";
import { policyHolderRepo } from "../policy-holders/repo.js";
import { templateRepo } from "../policy-templates/repo.js";
import type { CreateInput } from "./schemas.js";

/**
 * Lightweight mode needs no reference data loaded first: what a request names and the tenant lacks is
 * created inside the request's transaction (spec: "a member or policy that does not exist is created on
 * the fly"), each by the module that owns it. An existing member is kept as it is.
 */

export interface MemberOnFile extends MemberForAdjudication {
  created: boolean;
}

/** the member, created from the request's date of birth, gender and marital status when unknown; locked */
export async function ensureMember(
  tx: Queryable,
  tenantId: number,
  input: CreateInput,
): Promise<MemberOnFile> {
  // sent together: the lock runs after the insert on the transaction's connection
  const [created, row] = await Promise.all([
    memberRepo.insertIfMissing(tx, tenantId, {
      member_id: input.member_id,
      gender: input.member_gender,
      marital_status: input.marital_status,
      date_of_birth: input.member_dob,
    }),
    lockMember(tx, tenantId, input.member_id),
  ]);
  if (row === undefined) throw new Error(`member ${input.member_id} vanished inside its transaction`);
  return { ...row, created };
}

/** the member's row, locked until commit: one member's requests are adjudicated one after another */
export const lockMember = (tx: Queryable, tenantId: number, memberId: string) =>
  memberRepo.lockForAdjudication(tx, tenantId, memberId);

/**
 * The policy holder and the policy, created when unknown: the holder named by its ERP code, the policy
 * ACTIVE for the calendar year of the treatment.
 */
export async function ensurePolicy(tx: Queryable, tenantId: number, input: CreateInput): Promise<PolicyRow> {
  const known = await policyRepo.findWithHolder(tx, tenantId, input.ph_erp_id, input.policy_no);
  if (known?.policy !== undefined) return known.policy;
  if (known === undefined) await policyHolderRepo.insertIfMissing(tx, tenantId, input.ph_erp_id);
  const year = input.treatment_date.slice(0, 4);
  const policy = await policyRepo.ensure(tx, tenantId, input, {
    start_date: `${year}-01-01`,
    end_date: `${year}-12-31`,
  });
  if (policy === undefined) throw new Error(`policy ${input.policy_no} vanished inside its transaction`);
  return policy;
}

/** the category lightweight requests file the benefits they describe under */
export const LIGHTWEIGHT_CATEGORY = "LIGHTWEIGHT";

/**
 * Benefits and sub-benefits that items (or the request) describe and the policy lacks are created under
 * the LIGHTWEIGHT category, with a limit of 0: lightweight mode applies no limits, and a standard-mode
 * operator sets real ones.
 */
export async function ensureDescribedBenefits(
  tx: Queryable,
  tenantId: number,
  policyId: number,
  input: CreateInput,
): Promise<void> {
  const benefits = new Map<number, string>();
  const subBenefits: { benefit: number; code: number; description: string }[] = [];
  if (input.benefit_code !== undefined && input.benefit_description)
    benefits.set(input.benefit_code, input.benefit_description);
  for (const item of input.items) {
    const benefit = item.benefit_code ?? input.benefit_code;
    if (benefit === undefined) continue;
    if (item.benefit_description && !benefits.has(benefit)) benefits.set(benefit, item.benefit_description);
    if (item.sub_benefit_code !== undefined && item.sub_benefit_description) {
      if (!benefits.has(benefit)) benefits.set(benefit, `benefit ${benefit}`);
      subBenefits.push({ benefit, code: item.sub_benefit_code, description: item.sub_benefit_description });
    }
  }
  if (benefits.size === 0) return;
  await templateRepo.insertMissingBenefits(
    tx,
    tenantId,
    policyId,
    LIGHTWEIGHT_CATEGORY,
    benefits,
    subBenefits,
  );
}
