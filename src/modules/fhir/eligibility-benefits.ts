import type { CoverageEligibilityResponseInsuranceItem } from "@medplum/fhirtypes";
import type { Coverage } from "../../engine/prior-auth/types.js";
import { CS, HL7 } from "../../reference/nphies-fhir.js";
import { concept, moneyOf } from "./message.js";

/**
 * The benefits of a member's category as CoverageEligibilityResponse.insurance.item: the category's overall
 * limit, then one item per benefit, each with what is allowed and what is used (SAR).
 */

/** the NPHIES benefit-category code system numbers its categories 1 to 84 */
const BENEFIT_CATEGORIES = 84;
/** benefit-category 13, "Health Benefit Plan Coverage": the plan as a whole */
const WHOLE_PLAN = "13";
/** benefit-category 1, "Medical Care": a benefit whose own code is no NPHIES category */
const MEDICAL_CARE = "1";

/** a tenant's benefit code as a benefit-category code when it is one */
export const benefitCategoryOf = (code: number): string =>
  Number.isInteger(code) && code >= 1 && code <= BENEFIT_CATEGORIES ? String(code) : MEDICAL_CARE;

/** BV-00311: item names are at most 100 characters */
const nameOf = (text: string) => text.slice(0, 100);

function item(
  category: string,
  name: string,
  network: "in" | "out",
  allowed: number,
  used: number,
): CoverageEligibilityResponseInsuranceItem {
  return {
    category: concept(`${CS}benefit-category`, category),
    excluded: false,
    name: nameOf(name),
    network: concept(`${HL7}benefit-network`, network),
    unit: concept(`${HL7}benefit-unit`, "individual"),
    term: concept(`${HL7}benefit-term`, "annual"),
    benefit: [
      {
        type: concept(`${CS}benefit-type`, "benefit"),
        allowedMoney: moneyOf(allowed),
        usedMoney: moneyOf(used),
      },
    ],
  };
}

/** the items of the member's category (none when the policy's template lacks it) */
export function benefitItems(
  facts: Coverage | undefined,
  names: ReadonlyMap<number, string>,
  network: "in" | "out",
): CoverageEligibilityResponseInsuranceItem[] {
  const category = facts?.category;
  if (category === undefined) return [];
  return [
    item(
      WHOLE_PLAN,
      `Category ${facts?.link?.categoryCode ?? ""}`.trim(),
      network,
      category.limit,
      category.utilized,
    ),
    ...category.benefits.map((benefit) =>
      item(
        benefitCategoryOf(benefit.code),
        names.get(benefit.code) ?? `Benefit ${benefit.code}`,
        network,
        benefit.limit,
        benefit.utilized,
      ),
    ),
  ];
}
