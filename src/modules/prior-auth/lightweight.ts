import type { Queryable } from "../../platform/db/db.js";
import type { PolicyRow } from "../policies/repo.js";
import type { CreateInput } from "./schemas.js";

/**
 * Lightweight mode needs no reference data loaded first: what a request names and the tenant lacks is
 * created inside the request's transaction (spec: "a member or policy that does not exist is created on
 * the fly"). An existing member is kept as it is.
 */

export interface MemberOnFile {
  pk: number;
  gender: "MALE" | "FEMALE";
  date_of_birth: Date;
  created: boolean;
}

/** the member, created from the request's date of birth, gender and marital status when unknown; locked */
export async function ensureMember(
  tx: Queryable,
  tenantId: number,
  input: CreateInput,
): Promise<MemberOnFile> {
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO members (tenant_id, member_id, gender, marital_status, date_of_birth) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, member_id) DO NOTHING RETURNING id`,
    [tenantId, input.member_id, input.member_gender, input.marital_status, input.member_dob],
  );
  const row = await lockMember(tx, tenantId, input.member_id);
  if (row === undefined) throw new Error(`member ${input.member_id} vanished inside its transaction`);
  return { ...row, created: inserted.length > 0 };
}

/** the member's row, locked until commit: one member's requests are adjudicated one after another */
export async function lockMember(tx: Queryable, tenantId: number, memberId: string) {
  const rows = await tx.query<{ pk: number; gender: "MALE" | "FEMALE"; date_of_birth: Date }>(
    `SELECT id AS pk, gender, date_of_birth FROM members WHERE tenant_id = $1 AND member_id = $2 FOR UPDATE`,
    [tenantId, memberId],
  );
  return rows[0];
}

/**
 * The policy holder and the policy, created when unknown: the holder named by its ERP code, the policy
 * ACTIVE for the calendar year of the treatment.
 */
export async function ensurePolicy(tx: Queryable, tenantId: number, input: CreateInput): Promise<PolicyRow> {
  const known = await findPolicy(tx, tenantId, input);
  if (known !== undefined) return known;
  // a holder whose name is taken by another holder gets its ERP code with a suffix as its name
  await tx.query(
    `INSERT INTO policy_holders (tenant_id, ph_erp_id, name)
     SELECT $1, $2, CASE WHEN EXISTS (SELECT 1 FROM policy_holders WHERE tenant_id = $1 AND name = $2)
                         THEN $2 || ' (lightweight ' || gen_random_uuid() || ')' ELSE $2 END
     ON CONFLICT (tenant_id, ph_erp_id) DO NOTHING`,
    [tenantId, input.ph_erp_id],
  );
  const year = input.treatment_date.slice(0, 4);
  const rows = await tx.query<PolicyRow>(
    `WITH holder AS (SELECT id FROM policy_holders WHERE tenant_id = $1 AND ph_erp_id = $2),
     created AS (
       INSERT INTO policies (tenant_id, policy_holder_id, policy_no, start_date, end_date, created_date, status)
       SELECT $1, holder.id, $3, $4::date, $5::date, current_date, 'ACTIVE' FROM holder
       ON CONFLICT (tenant_id, policy_holder_id, policy_no) DO NOTHING
       RETURNING id, policy_holder_id, policy_no, start_date, end_date, created_date, status, plan_code)
     SELECT * FROM created
     UNION ALL
     SELECT p.id, p.policy_holder_id, p.policy_no, p.start_date, p.end_date, p.created_date, p.status, p.plan_code
     FROM policies p JOIN holder ON p.policy_holder_id = holder.id WHERE p.policy_no = $3`,
    [tenantId, input.ph_erp_id, input.policy_no, `${year}-01-01`, `${year}-12-31`],
  );
  const policy = rows[0];
  if (policy === undefined) throw new Error(`policy ${input.policy_no} vanished inside its transaction`);
  return policy;
}

async function findPolicy(
  tx: Queryable,
  tenantId: number,
  input: CreateInput,
): Promise<PolicyRow | undefined> {
  const rows = await tx.query<PolicyRow>(
    `SELECT p.id, p.policy_holder_id, p.policy_no, p.start_date, p.end_date, p.created_date, p.status, p.plan_code
     FROM policy_holders h JOIN policies p ON p.policy_holder_id = h.id
     WHERE h.tenant_id = $1 AND h.ph_erp_id = $2 AND p.policy_no = $3`,
    [tenantId, input.ph_erp_id, input.policy_no],
  );
  return rows[0];
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
  await tx.query(
    `WITH category AS (
       INSERT INTO policy_categories (tenant_id, policy_id, category_code, amount_eligible) VALUES ($1, $2, $3, 0)
       ON CONFLICT (policy_id, category_code) DO UPDATE SET updated_at = policy_categories.updated_at
       RETURNING id)
     INSERT INTO policy_benefits (tenant_id, category_id, benefit_code, description, limit_amount)
     SELECT $1, category.id, b.code, b.description, 0 FROM category, unnest($4::int[], $5::text[]) AS b (code, description)
     WHERE NOT EXISTS (
       SELECT 1 FROM policy_benefits pb JOIN policy_categories pc ON pc.id = pb.category_id
       WHERE pc.policy_id = $2 AND pb.benefit_code = b.code)
     ON CONFLICT (category_id, benefit_code) DO NOTHING`,
    [tenantId, policyId, LIGHTWEIGHT_CATEGORY, [...benefits.keys()], [...benefits.values()]],
  );
  if (subBenefits.length === 0) return;
  await tx.query(
    `INSERT INTO policy_sub_benefits (tenant_id, benefit_id, sub_benefit_code, description, limit_amount)
     SELECT DISTINCT ON (pb.id, s.code) $1, pb.id, s.code, s.description, 0
     FROM unnest($3::int[], $4::int[], $5::text[]) AS s (benefit, code, description)
     JOIN policy_benefits pb ON pb.benefit_code = s.benefit
     JOIN policy_categories pc ON pc.id = pb.category_id AND pc.policy_id = $2
     ON CONFLICT (benefit_id, sub_benefit_code) DO NOTHING`,
    [
      tenantId,
      policyId,
      subBenefits.map((s) => s.benefit),
      subBenefits.map((s) => s.code),
      subBenefits.map((s) => s.description),
    ],
  );
}
