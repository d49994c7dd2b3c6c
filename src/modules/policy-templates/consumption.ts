import { riyalsOf } from "../../engine/money.js";
import type { Db } from "../../platform/db/db.js";
import { patientLinkRepo } from "../policies/repo.js";
import { foldUtilization, type PolicyKey, requireLink } from "../policies/service.js";
import { templateRepo } from "./repo.js";

/**
 * What the member may still use: the limits of the member's category in the policy's template against
 * the approved amounts of the member's prior authorizations under the policy that are not rejected or
 * cancelled. Amounts are summed in halalas.
 */
export async function getConsumption(db: Db, tenantId: number, key: PolicyKey & { member_id: string }) {
  const { policy, link } = await requireLink(db, tenantId, key);
  const [category, usage] = await Promise.all([
    templateRepo.loadCategory(db, policy.id, link.category_code),
    patientLinkRepo.utilization(db, tenantId, link.member_pk, policy.id),
  ]);
  const { utilized, exgratia, byBenefit, bySubBenefit } = foldUtilization(usage);
  const benefits = category?.benefits ?? [];
  return {
    member_id: key.member_id,
    category_code: link.category_code,
    amount_eligible: category?.amount_eligible ?? 0,
    amount_exgratia: riyalsOf(exgratia),
    amount_utilized: riyalsOf(utilized),
    benefit_consumption: benefits.map((benefit) => ({
      benefit_code: benefit.benefit_code,
      limit: benefit.limit,
      utilized: riyalsOf(byBenefit.get(benefit.benefit_code) ?? 0),
    })),
    sub_benefit_consumption: benefits.flatMap((benefit) =>
      benefit.sub_benefits.map((sub) => ({
        sub_benefit_code: sub.sub_benefit_code,
        benefit_code: benefit.benefit_code,
        limit: sub.limit,
        utilized: riyalsOf(bySubBenefit.get(`${benefit.benefit_code}/${sub.sub_benefit_code}`) ?? 0),
      })),
    ),
  };
}
