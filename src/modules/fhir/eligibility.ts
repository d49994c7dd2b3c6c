import { randomUUID } from "node:crypto";
import type { Bundle, CoverageEligibilityResponse } from "@medplum/fhirtypes";
import { eligibilityReasons } from "../../engine/prior-auth/eligibility.js";
import type { Coverage } from "../../engine/prior-auth/types.js";
import type { RequestContext } from "../../platform/context.js";
import { CS, EXTENSION, HL7, PAYER_LICENSE, PROVIDER_LICENSE, profile } from "../../reference/nphies-fhir.js";
import { memberRepo } from "../members/repo.js";
import { policyRepo } from "../policies/repo.js";
import { loadCoverage } from "../prior-auth/context.js";
import { concept, moneyOf, responseMessageOf } from "./message.js";
import type { Entry, Message } from "./bundle.js";
import type { FhirCoverage, FhirEligibilityRequest } from "./schemas.js";
import { coverageClass, licenceOf } from "./values.js";

/** what the request asks about, resolved in the bundle; refuses (400) what does not resolve */
function readEligibilityRequest(message: Message) {
  const { problems } = message;
  const focus = message.resolve(
    message.header.focus[0],
    "Bundle.entry[0].resource.focus[0]",
    "CoverageEligibilityRequest",
  );
  problems.throwIfAny();
  if (focus === undefined) throw new Error("unreachable: an unresolved focus is a problem");
  const request = focus.resource;
  const patient = message.resolve(request.patient, `${focus.path}.patient`, "Patient");
  const provider = message.resolve(request.provider, `${focus.path}.provider`, "Organization");
  const insurer = message.resolve(request.insurer, `${focus.path}.insurer`, "Organization");
  const coverages = request.insurance.map((insurance, index) =>
    message.resolve(insurance.coverage, `${focus.path}.insurance[${index}].coverage`, "Coverage"),
  );
  const license = licenceOf(provider?.resource, PROVIDER_LICENSE);
  if (provider !== undefined && license === undefined)
    problems.add(`${provider.path}.identifier`, `must hold the provider's licence (${PROVIDER_LICENSE})`);
  coverages.forEach((coverage) => {
    if (coverage === undefined) return;
    for (const type of ["plan", "group"] as const)
      if (coverageClass(coverage.resource, type) === undefined)
        problems.add(`${coverage.path}.class`, `must hold a class of type ${type}`);
    if (coverage.resource.identifier[0]?.value === undefined)
      problems.add(`${coverage.path}.identifier[0].value`, "is required: the member's id with the payer");
  });
  problems.throwIfAny();
  if (patient === undefined || provider === undefined || insurer === undefined)
    throw new Error("unreachable: unresolved references are problems");
  return {
    focus,
    patient,
    provider,
    insurer,
    license: license ?? "",
    coverages: coverages.flatMap((coverage) => (coverage === undefined ? [] : [coverage])),
  };
}

type Site = "eligible" | "not-eligible" | "out-network";

/** one coverage of the request as the tenant's data answers it */
async function answerCoverage(
  ctx: RequestContext,
  coverage: Entry<FhirCoverage>,
  providerLicense: string,
  date: Date,
) {
  const memberId = coverage.resource.identifier[0]?.value ?? "";
  const [memberPk, found] = await Promise.all([
    memberRepo.findPk(ctx.db, ctx.tenantId, memberId),
    policyRepo.findWithHolder(
      ctx.db,
      ctx.tenantId,
      coverageClass(coverage.resource, "group") ?? "",
      coverageClass(coverage.resource, "plan") ?? "",
    ),
  ]);
  if (ctx.mode === "lightweight")
    // lightweight tenants keep no coverage: every member is eligible, as the engine adjudicates them
    return { coverage, inforce: true, site: "eligible" as Site, reasons: [] as string[], facts: undefined };
  const policy = found?.policy;
  if (memberPk === undefined || policy === undefined)
    return {
      coverage,
      inforce: false,
      site: "not-eligible" as Site,
      reasons: [memberPk === undefined ? `member ${memberId} is not known` : "the policy is not known"],
      facts: undefined,
    };
  const facts: Coverage = await loadCoverage(
    ctx.db,
    ctx.tenantId,
    {
      mode: ctx.mode,
      member: { pk: memberPk, memberId },
      policy,
      providerId: undefined,
      providerCchiNo: providerLicense,
      exceptPriorAuthId: null,
    },
    policy,
  );
  const reasons = eligibilityReasons(facts, date).map((reason) => reason.message);
  const site: Site =
    reasons.length > 0 ? "not-eligible" : facts.providerInNetwork === false ? "out-network" : "eligible";
  return { coverage, inforce: reasons.length === 0, site, reasons, facts };
}

type Answer = Awaited<ReturnType<typeof answerCoverage>>;

function benefitsOf(answer: Answer) {
  const category = answer.facts?.category;
  if (category === undefined) return [];
  return [
    {
      category: concept(`${CS}benefit-category`, "all"),
      name: `category ${answer.facts?.link?.categoryCode ?? ""}`.trim(),
      network: concept(`${HL7}benefit-network`, answer.site === "out-network" ? "out" : "in"),
      benefit: [
        {
          type: concept(`${HL7}benefit-type`, "benefit"),
          allowedMoney: moneyOf(category.limit),
          usedMoney: moneyOf(category.utilized),
        },
      ],
    },
    ...category.benefits.map((benefit) => ({
      category: concept(`${CS}benefit-category`, String(benefit.code)),
      network: concept(`${HL7}benefit-network`, answer.site === "out-network" ? "out" : "in"),
      benefit: [
        {
          type: concept(`${HL7}benefit-type`, "benefit"),
          allowedMoney: moneyOf(benefit.limit),
          usedMoney: moneyOf(benefit.utilized),
        },
      ],
    })),
  ];
}

/**
 * An eligibility-request answered from the member's links, the policy and the provider's network: for
 * each coverage asked about, whether it is in force on the serviced date, the site eligibility and the
 * category's benefits with their limits and what is used.
 */
export async function answerEligibility(ctx: RequestContext, message: Message): Promise<Bundle> {
  const read = readEligibilityRequest(message);
  const request: FhirEligibilityRequest = read.focus.resource;
  const served = request.servicedPeriod?.start ?? request.servicedDate ?? request.created;
  const date = new Date(served.length === 10 ? `${served}T00:00:00Z` : served);
  const answers = await Promise.all(
    read.coverages.map((coverage) => answerCoverage(ctx, coverage, read.license, date)),
  );
  const site: Site = answers.some((answer) => answer.site === "eligible")
    ? "eligible"
    : (answers.find((answer) => answer.site === "out-network")?.site ?? "not-eligible");
  const payer = licenceOf(read.insurer.resource, PAYER_LICENSE) ?? "";
  const fullUrlOf = (index: number) => message.bundle.entry[index]?.fullUrl ?? "";
  const at = ctx.now();
  const response: CoverageEligibilityResponse = {
    resourceType: "CoverageEligibilityResponse",
    id: randomUUID(),
    meta: { profile: [profile("eligibility-response")] },
    extension: [
      { url: EXTENSION.siteEligibility, valueCodeableConcept: concept(`${CS}siteEligibility`, site) },
    ],
    status: "active",
    purpose: request.purpose,
    patient: { reference: fullUrlOf(read.patient.index) },
    ...(request.servicedDate ? { servicedDate: request.servicedDate } : {}),
    ...(request.servicedPeriod ? { servicedPeriod: request.servicedPeriod } : {}),
    created: at.toISOString(),
    requestor: { reference: fullUrlOf(read.provider.index) },
    request: request.identifier?.[0]?.value
      ? { identifier: { system: request.identifier[0].system, value: request.identifier[0].value } }
      : { reference: fullUrlOf(read.focus.index) },
    outcome: "complete",
    disposition: answers
      .map((answer) =>
        answer.inforce
          ? `${answer.coverage.resource.identifier[0]?.value}: in force (${answer.site})`
          : `${answer.coverage.resource.identifier[0]?.value}: not in force: ${answer.reasons.join("; ")}`,
      )
      .join(". "),
    insurer: { reference: fullUrlOf(read.insurer.index) },
    insurance: answers.map((answer) => ({
      coverage: { reference: fullUrlOf(answer.coverage.index) },
      inforce: answer.inforce,
      ...(answer.facts?.link
        ? {
            benefitPeriod: {
              start: answer.facts.link.startDate.slice(0, 10),
              end: answer.facts.link.endDate.slice(0, 10),
            },
          }
        : {}),
      item: benefitsOf(answer),
    })),
  };
  return responseMessageOf(
    {
      event: "eligibility-response",
      requestMessageId: message.header.id,
      providerLicense: read.license,
      payerLicense: payer,
      at,
    },
    response,
    [read.patient, read.provider, read.insurer, ...answers.map((answer) => answer.coverage)].map((entry) =>
      message.received(entry),
    ),
  );
}
