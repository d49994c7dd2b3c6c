import { amountOrNull } from "../../engine/money.js";
import type { Queryable } from "../../platform/db/db.js";
import type { CategoryTemplate } from "./schemas.js";

/** one row per category, benefit and sub-benefit of a policy (benefit and sub-benefit columns null above their level) */
interface TemplateRow {
  category_code: string;
  amount_eligible: string;
  benefit_code: number | null;
  benefit_description: string | null;
  benefit_limit: string | null;
  sub_benefit_code: number | null;
  sub_benefit_description: string | null;
  sub_benefit_limit: string | null;
}

/** a template's rows: categories, their benefits and sub-benefits (amounts as NUMERIC text) */
const TEMPLATE_SELECT = `SELECT c.category_code, c.amount_eligible::text, b.benefit_code,
    b.description AS benefit_description, b.limit_amount::text AS benefit_limit, s.sub_benefit_code,
    s.description AS sub_benefit_description, s.limit_amount::text AS sub_benefit_limit
  FROM policy_categories c
  LEFT JOIN policy_benefits b ON b.category_id = c.id
  LEFT JOIN policy_sub_benefits s ON s.benefit_id = b.id`;

export const templateRepo = {
  /**
   * Benefits and sub-benefits the policy lacks, created under `category` (made when missing) with limits
   * of 0; a benefit the policy has under any category is left alone
   */
  async insertMissingBenefits(
    tx: Queryable,
    tenantId: number,
    policyId: number,
    category: string,
    benefits: ReadonlyMap<number, string>,
    subBenefits: readonly { benefit: number; code: number; description: string }[],
  ): Promise<void> {
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
      [tenantId, policyId, category, [...benefits.keys()], [...benefits.values()]],
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
  },

  async insertCategory(
    tx: Queryable,
    tenantId: number,
    policyId: number,
    code: string,
    amountEligible: number,
  ) {
    await tx.query(
      `INSERT INTO policy_categories (tenant_id, policy_id, category_code, amount_eligible) VALUES ($1, $2, $3, $4)`,
      [tenantId, policyId, code, amountEligible],
    );
  },

  /** undefined when the policy has no such category */
  async updateCategory(tx: Queryable, policyId: number, code: string, amountEligible: number) {
    const rows = await tx.query<{ amount_eligible: string }>(
      `UPDATE policy_categories SET amount_eligible = $3, updated_at = now()
       WHERE policy_id = $1 AND category_code = $2 RETURNING amount_eligible::text`,
      [policyId, code, amountEligible],
    );
    return rows[0];
  },

  async findCategoryId(db: Queryable, policyId: number, code: string): Promise<number | undefined> {
    const rows = await db.query<{ id: number }>(
      `SELECT id FROM policy_categories WHERE policy_id = $1 AND category_code = $2`,
      [policyId, code],
    );
    return rows[0]?.id;
  },

  async insertBenefit(
    tx: Queryable,
    tenantId: number,
    categoryId: number,
    benefit: { code: number; description: string | null; limit: number },
  ): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO policy_benefits (tenant_id, category_id, benefit_code, description, limit_amount)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [tenantId, categoryId, benefit.code, benefit.description, benefit.limit],
    );
    return (rows[0] as { id: number }).id;
  },

  async findBenefit(db: Queryable, categoryId: number, benefitCode: number) {
    const rows = await db.query<{ id: number; description: string | null }>(
      `SELECT id, description FROM policy_benefits WHERE category_id = $1 AND benefit_code = $2`,
      [categoryId, benefitCode],
    );
    return rows[0];
  },

  async updateBenefitLimit(tx: Queryable, benefitId: number, limit: number) {
    const rows = await tx.query<{ description: string | null; limit_amount: string }>(
      `UPDATE policy_benefits SET limit_amount = $2, updated_at = now() WHERE id = $1
       RETURNING description, limit_amount::text`,
      [benefitId, limit],
    );
    return rows[0] as { description: string | null; limit_amount: string };
  },

  /** a benefit created without a description takes the one a later sub-benefit request names */
  async describeBenefitIfBlank(tx: Queryable, benefitId: number, description: string) {
    await tx.query(`UPDATE policy_benefits SET description = $2 WHERE id = $1 AND description IS NULL`, [
      benefitId,
      description,
    ]);
  },

  async insertSubBenefits(
    tx: Queryable,
    tenantId: number,
    benefitId: number,
    subBenefits: readonly { sub_benefit_code: number; sub_benefit_description?: string; limit: number }[],
  ) {
    if (subBenefits.length === 0) return;
    await tx.query(
      `INSERT INTO policy_sub_benefits (tenant_id, benefit_id, sub_benefit_code, description, limit_amount)
       SELECT $1, $2, s.code, s.description, s.limit_amount
       FROM unnest($3::int[], $4::text[], $5::numeric[]) AS s (code, description, limit_amount)`,
      [
        tenantId,
        benefitId,
        subBenefits.map((s) => s.sub_benefit_code),
        subBenefits.map((s) => s.sub_benefit_description ?? null),
        subBenefits.map((s) => s.limit),
      ],
    );
  },

  /** the policy's whole template as a tree, in code order */
  async loadTemplate(db: Queryable, policyId: number): Promise<CategoryTemplate[]> {
    return foldTemplate(await templateRepo.listTemplate(db, policyId));
  },

  /** one category of a policy's template with its limits (consumption and the engine read it); undefined when absent */
  async loadCategory(
    db: Queryable,
    policyId: number,
    categoryCode: string,
  ): Promise<CategoryTemplate | undefined> {
    return foldTemplate(await templateRepo.listTemplate(db, policyId, categoryCode))[0];
  },

  /** the category of the member's link to the policy, with its benefits (one statement) */
  async loadCategoryOfMember(
    db: Queryable,
    policyId: number,
    memberPk: number,
  ): Promise<CategoryTemplate | undefined> {
    const rows = await db.query<TemplateRow>(
      `${TEMPLATE_SELECT}
       WHERE c.policy_id = $1
         AND c.category_code = (SELECT category_code FROM patient_policies WHERE policy_id = $1 AND member_pk = $2)
       ORDER BY c.category_code, b.benefit_code, s.sub_benefit_code`,
      [policyId, memberPk],
    );
    return foldTemplate(rows)[0];
  },

  /** the policy's template rows (or one category's), in code order */
  async listTemplate(db: Queryable, policyId: number, categoryCode?: string): Promise<TemplateRow[]> {
    return db.query<TemplateRow>(
      `${TEMPLATE_SELECT}
       WHERE c.policy_id = $1 AND ($2::text IS NULL OR c.category_code = $2)
       ORDER BY c.category_code, b.benefit_code, s.sub_benefit_code`,
      [policyId, categoryCode ?? null],
    );
  },
};

/** rows of categories, benefits and sub-benefits folded into the template's tree */
function foldTemplate(rows: readonly TemplateRow[]): CategoryTemplate[] {
  const categories = new Map<string, CategoryTemplate>();
  for (const row of rows) {
    let category = categories.get(row.category_code);
    if (category === undefined) {
      category = {
        category_code: row.category_code,
        amount_eligible: amountOrNull(row.amount_eligible) ?? 0,
        benefits: [],
      };
      categories.set(row.category_code, category);
    }
    if (row.benefit_code === null) continue;
    let benefit = category.benefits.at(-1);
    if (benefit?.benefit_code !== row.benefit_code) {
      benefit = {
        benefit_code: row.benefit_code,
        benefit_description: row.benefit_description,
        limit: amountOrNull(row.benefit_limit) ?? 0,
        sub_benefits: [],
      };
      category.benefits.push(benefit);
    }
    if (row.sub_benefit_code === null) continue;
    benefit.sub_benefits.push({
      sub_benefit_code: row.sub_benefit_code,
      sub_benefit_description: row.sub_benefit_description,
      limit: amountOrNull(row.sub_benefit_limit) ?? 0,
    });
  }
  return [...categories.values()];
}
