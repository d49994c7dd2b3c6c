import { amountOrNull } from "../../engine/money.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError, refusal, withConflicts } from "../../platform/http/errors.js";
import { type PolicyKey, requirePolicy } from "../policies/service.js";
import { templateRepo } from "./repo.js";

export { getConsumption } from "./consumption.js";

import type {
  BenefitCreateInput,
  BenefitUpdateInput,
  CategoryInput,
  CategoryTemplate,
  SubBenefitCreateInput,
} from "./schemas.js";

/**
 * The template of a policy: category > benefit > sub-benefit, each with a limit. A parent must exist
 * before its children; a code appears once under its parent (409 E_EPA_069 on a second add, which
 * keeps "add" from silently changing a limit: limits change through the update operations).
 */

function entityKey(key: PolicyKey, ...path: (string | number)[]): string {
  return [key.ph_erp_id, key.policy_no, ...path].join("/");
}

type CategoryKey = PolicyKey & { category_code: string };

const categoryNotFound = (key: CategoryKey) =>
  new AppError("E_EBA_01", `Category ${key.category_code} not found in policy ${key.policy_no}`);

/** the named category of the named policy: 404 for the holder, the policy or the category */
async function requireCategoryId(db: Queryable, tenantId: number, key: CategoryKey): Promise<number> {
  const policy = await requirePolicy(db, tenantId, key);
  const categoryId = await templateRepo.findCategoryId(db, policy.id, key.category_code);
  if (categoryId === undefined) throw categoryNotFound(key);
  return categoryId;
}

/** the named benefit of that category: 404 for any missing level */
async function requireBenefit(db: Queryable, tenantId: number, key: CategoryKey & { benefit_code: number }) {
  const categoryId = await requireCategoryId(db, tenantId, key);
  const benefit = await templateRepo.findBenefit(db, categoryId, key.benefit_code);
  if (benefit === undefined)
    throw new AppError("E_EBA_01", `Benefit ${key.benefit_code} not found in category ${key.category_code}`);
  return benefit;
}

function requireDistinctSubBenefits(subBenefits: readonly { sub_benefit_code: number }[]) {
  const seen = new Map<number, number>();
  subBenefits.forEach((sub, index) => {
    const first = seen.get(sub.sub_benefit_code);
    if (first !== undefined)
      throw refusal("E_BAD_REQUEST_400", [
        `sub_benefits[${index}].sub_benefit_code duplicates sub_benefits[${first}]`,
      ]);
    seen.set(sub.sub_benefit_code, index);
  });
}

export async function addCategory(db: Db, actor: TenantActor, input: CategoryInput): Promise<void> {
  const policy = await requirePolicy(db, actor.tenantId, input);
  await withConflicts(
    () =>
      db.transaction(async (tx) => {
        await templateRepo.insertCategory(
          tx,
          actor.tenantId,
          policy.id,
          input.category_code,
          input.amount_eligible,
        );
        await recordAudit(tx, actor, {
          action: "policy-template.category.create",
          entityType: "policy-template",
          entityKey: entityKey(input, input.category_code),
          details: { amount_eligible: input.amount_eligible },
        });
      }),
    {
      policy_categories_code_key: () =>
        new AppError(
          "E_EPA_069",
          `Category ${input.category_code} already exists in policy ${input.policy_no}`,
        ),
    },
  );
}

export async function updateCategory(db: Db, actor: TenantActor, input: CategoryInput) {
  const policy = await requirePolicy(db, actor.tenantId, input);
  return db.transaction(async (tx) => {
    const updated = await templateRepo.updateCategory(
      tx,
      policy.id,
      input.category_code,
      input.amount_eligible,
    );
    if (updated === undefined) throw categoryNotFound(input);
    await recordAudit(tx, actor, {
      action: "policy-template.category.update",
      entityType: "policy-template",
      entityKey: entityKey(input, input.category_code),
      details: { amount_eligible: input.amount_eligible },
    });
    return {
      category_code: input.category_code,
      amount_eligible: amountOrNull(updated.amount_eligible) ?? 0,
    };
  });
}

export async function addBenefit(db: Db, actor: TenantActor, input: BenefitCreateInput): Promise<void> {
  const subBenefits = input.sub_benefits ?? [];
  requireDistinctSubBenefits(subBenefits);
  const categoryId = await requireCategoryId(db, actor.tenantId, input);
  await withConflicts(
    () =>
      db.transaction(async (tx) => {
        const benefitId = await templateRepo.insertBenefit(tx, actor.tenantId, categoryId, {
          code: input.benefit_code,
          description: input.benefit_description ?? null,
          limit: input.limit,
        });
        await templateRepo.insertSubBenefits(tx, actor.tenantId, benefitId, subBenefits);
        await recordAudit(tx, actor, {
          action: "policy-template.benefit.create",
          entityType: "policy-template",
          entityKey: entityKey(input, input.category_code, input.benefit_code),
          details: { limit: input.limit, sub_benefits: subBenefits.length },
        });
      }),
    {
      policy_benefits_code_key: () =>
        new AppError(
          "E_EPA_069",
          `Benefit ${input.benefit_code} already exists in category ${input.category_code}`,
        ),
    },
  );
}

export async function addSubBenefit(db: Db, actor: TenantActor, input: SubBenefitCreateInput): Promise<void> {
  const benefit = await requireBenefit(db, actor.tenantId, input);
  await withConflicts(
    () =>
      db.transaction(async (tx) => {
        if (input.benefit_description)
          await templateRepo.describeBenefitIfBlank(tx, benefit.id, input.benefit_description);
        await templateRepo.insertSubBenefits(tx, actor.tenantId, benefit.id, [input]);
        await recordAudit(tx, actor, {
          action: "policy-template.sub-benefit.create",
          entityType: "policy-template",
          entityKey: entityKey(input, input.category_code, input.benefit_code, input.sub_benefit_code),
          details: { limit: input.limit },
        });
      }),
    {
      policy_sub_benefits_code_key: () =>
        new AppError(
          "E_EPA_069",
          `Sub-benefit ${input.sub_benefit_code} already exists in benefit ${input.benefit_code}`,
        ),
    },
  );
}

export async function updateBenefit(db: Db, actor: TenantActor, input: BenefitUpdateInput) {
  const benefit = await requireBenefit(db, actor.tenantId, input);
  return db.transaction(async (tx) => {
    const updated = await templateRepo.updateBenefitLimit(tx, benefit.id, input.limit);
    await recordAudit(tx, actor, {
      action: "policy-template.benefit.update",
      entityType: "policy-template",
      entityKey: entityKey(input, input.category_code, input.benefit_code),
      details: { limit: input.limit },
    });
    return {
      category_code: input.category_code,
      benefit_code: input.benefit_code,
      benefit_description: updated.description,
      limit: amountOrNull(updated.limit_amount) ?? 0,
    };
  });
}

export async function getTemplate(db: Db, tenantId: number, key: PolicyKey): Promise<CategoryTemplate[]> {
  const policy = await requirePolicy(db, tenantId, key);
  return templateRepo.loadTemplate(db, policy.id);
}
