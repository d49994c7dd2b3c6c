import { randomUUID } from "node:crypto";
import type { Coverage, CoverageEligibilityResponseInsurance, Extension } from "@medplum/fhirtypes";
import { CS, EXTENSION, HL7, PAYER_LICENSE, profile, SD } from "../../reference/nphies-fhir.js";
import { benefitItems } from "./eligibility-benefits.js";
import type { Answered } from "./eligibility-find.js";
import type { PolicyAnswer, Site } from "./eligibility-policy.js";
import { concept } from "./message.js";
import type { ReceivedEntry } from "./origin.js";

/** The parts of a CoverageEligibilityResponse: site eligibility, insurances and the payer's own Coverages. */

const SITE_ELIGIBILITY = `${CS}siteEligibility`;
/** IG change log 4.7.8 adds notInForceReason; the pack gives no code system of its own, so siteEligibility's */
const NOT_IN_FORCE_REASON = `${SD}extension-notInForceReason`;

export const siteExtension = (site: Site): Extension => ({
  url: EXTENSION.siteEligibility,
  valueCodeableConcept: concept(SITE_ELIGIBILITY, site),
});

/** adjudication-error 1559/1560: the reason is required where a coverage is not in force (or none is given) */
export const notInForceExtension = (site: Site, reasons: readonly string[]): Extension => ({
  url: NOT_IN_FORCE_REASON,
  valueCodeableConcept: { ...concept(SITE_ELIGIBILITY, site), text: reasons.join("; ") },
});

/**
 * BV-00559 / 00561 / 00535 / 00558: eligible when any insurance is; otherwise the first insurance's code
 * (never eligible when none is in force), not-active when there is no insurance at all
 */
export const siteOfAll = (answers: readonly PolicyAnswer[]): Site =>
  answers.some((answer) => answer.site === "eligible") ? "eligible" : (answers[0]?.site ?? "not-active");

const SITE_TEXT: Record<Site, string> = {
  eligible: "in force, eligible",
  "not-active": "not in force",
  "out-network": "in force, the provider is outside the member's network",
  "limit-exhausted": "in force, the category's limit is used up",
};

/** BV-00310: a disposition is at most 250 characters */
export const dispositionOf = (text: string) => (text.length <= 250 ? text : `${text.slice(0, 249)}…`);

/** one insurance in words: the member, the policy and whether (or why not) it is in force */
export function describe({ answer }: Answered): string {
  const policy =
    answer.policy === undefined ? "" : ` on policy ${answer.policy.policy_no} of ${answer.policy.ph_erp_id}`;
  const state = answer.inforce ? SITE_TEXT[answer.site] : `not in force: ${answer.reasons.join("; ")}`;
  return `Member ${answer.memberId}${policy}: ${state}`;
}

/** a Coverage of the payer's own for a policy found on discovery, so that insurance.coverage resolves */
export function coverageOf(
  answer: PolicyAnswer,
  payerLicense: string,
  urls: { patient: string; insurer: string },
): ReceivedEntry {
  const policy = answer.policy;
  const id = randomUUID();
  const classOf = (type: "group" | "plan", value: string, name: string) => ({
    type: concept(`${HL7}coverage-class`, type),
    value,
    name,
  });
  const coverage: Coverage = {
    resourceType: "Coverage",
    id,
    meta: { profile: [profile("coverage")] },
    identifier: [{ system: `${PAYER_LICENSE}/${payerLicense}/memberid`, value: answer.memberId }],
    status: "active",
    type: concept(`${CS}coverage-type`, "EHCPOL", "extended healthcare"),
    subscriber: { reference: urls.patient },
    subscriberId: answer.memberId,
    beneficiary: { reference: urls.patient },
    relationship: concept(`${HL7}subscriber-relationship`, "self"),
    ...(policy === undefined ? {} : { period: { start: policy.link_start, end: policy.link_end } }),
    payor: [{ reference: urls.insurer }],
    ...(policy === undefined
      ? {}
      : {
          class: [
            classOf("group", policy.ph_erp_id, "Policy holder"),
            classOf("plan", policy.policy_no, "Policy"),
          ],
        }),
  };
  return { fullUrl: `urn:uuid:${id}`, resource: { ...coverage } };
}

/** CoverageEligibilityResponse.insurance: in force or why not, the link's period, and the benefits when asked */
export function insuranceOf(
  { answer }: Answered,
  coverageUrl: string,
  benefits: boolean,
): CoverageEligibilityResponseInsurance {
  const link = answer.facts?.link;
  const items =
    benefits && answer.inforce
      ? benefitItems(answer.facts, answer.benefitNames, answer.site === "out-network" ? "out" : "in")
      : [];
  return {
    extension: [
      siteExtension(answer.site),
      ...(answer.inforce ? [] : [notInForceExtension(answer.site, answer.reasons)]),
    ],
    coverage: { reference: coverageUrl },
    inforce: answer.inforce,
    ...(link === undefined
      ? {}
      : { benefitPeriod: { start: link.startDate.slice(0, 10), end: link.endDate.slice(0, 10) } }),
    ...(items.length === 0 ? {} : { item: items }),
  };
}
