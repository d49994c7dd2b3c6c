import { randomUUID } from "node:crypto";
import type { Bundle, CoverageEligibilityResponse } from "@medplum/fhirtypes";
import type { RequestContext } from "../../platform/context.js";
import { CS, PAYER_LICENSE, profile } from "../../reference/nphies-fhir.js";
import type { Message } from "./bundle.js";
import { type Found, findCoverages } from "./eligibility-find.js";
import { type EligibilityRequest, keysOf, readEligibilityRequest } from "./eligibility-request.js";
import {
  coverageOf,
  describe,
  dispositionOf,
  insuranceOf,
  notInForceExtension,
  siteExtension,
  siteOfAll,
} from "./eligibility-response.js";
import { concept, responseMessageOf } from "./message.js";

type Urls = { url: (index: number) => string; patient: string; insurer: string };

/** what the response says of the coverages found: complete with each insurance, or the error of no member */
function outcomeOf(found: Found, request: EligibilityRequest, urls: Urls) {
  if (!found.found)
    return {
      body: {
        outcome: "error" as const,
        disposition: dispositionOf(found.disposition),
        error: [{ code: concept(`${CS}adjudication-error`, found.error.code, found.error.display) }],
      },
      own: [],
    };
  const parts = found.answered.map((answered) => {
    if (answered.asked !== undefined)
      return { insurance: insuranceOf(answered, urls.url(answered.asked.entry.index), request.benefits) };
    const coverage = coverageOf(answered.answer, request.payerLicense, urls);
    return { insurance: insuranceOf(answered, coverage.fullUrl, request.benefits), coverage };
  });
  const answers = found.answered.map(({ answer }) => answer);
  const site = siteOfAll(answers);
  const reasons =
    answers.length === 0
      ? [`member ${found.memberId} holds no policy`]
      : answers.flatMap((answer) => answer.reasons);
  const insurance = parts.map((part) => part.insurance);
  return {
    body: {
      // a reason at the response level too when no coverage is in force
      extension: [
        siteExtension(site),
        ...(answers.every((answer) => !answer.inforce) ? [notInForceExtension(site, reasons)] : []),
      ],
      outcome: "complete" as const,
      disposition: dispositionOf(
        answers.length === 0 ? reasons.join("; ") : found.answered.map(describe).join(". "),
      ),
      ...(insurance.length === 0 ? {} : { insurance }),
    },
    own: parts.flatMap((part) => (part.coverage === undefined ? [] : [part.coverage])),
  };
}

/** the request's resources the response references: the parties and each Coverage asked about with its own */
function referencedBy(request: EligibilityRequest, found: Found) {
  const referenced = [
    request.patient,
    request.provider,
    request.insurer,
    ...(found.found
      ? found.answered.flatMap(({ asked }) => (asked === undefined ? [] : [asked.entry, ...asked.referenced]))
      : []),
  ];
  // a Patient or Organization referenced twice (beneficiary and subscriber, payor and insurer) is carried once
  return [...new Map(referenced.map((entry) => [entry.index, entry])).values()];
}

/**
 * An eligibility-request answered from the tenant's members, policies, links, networks and category limits
 * (the engine's eligibility facts): outcome `complete` with one insurance per coverage asked about or found
 * and the siteEligibility of each, or outcome `error` (adjudication-error 1658/1657) when no member is found.
 */
export async function answerEligibility(ctx: RequestContext, message: Message): Promise<Bundle> {
  const request = readEligibilityRequest(message);
  const found = await findCoverages(ctx, request, keysOf(request));
  const at = ctx.now();
  const url = (index: number) => message.bundle.entry[index]?.fullUrl ?? "";
  const urls = { url, patient: url(request.patient.index), insurer: url(request.insurer.index) };
  const asked = request.focus.resource;
  const id = randomUUID();
  const { body, own } = outcomeOf(found, request, urls);
  const response: CoverageEligibilityResponse = {
    resourceType: "CoverageEligibilityResponse",
    id,
    meta: { profile: [profile("eligibility-response")] },
    // the extension first, where the pack's samples put it (the body below sets it again, in place)
    ...("extension" in body ? { extension: body.extension } : {}),
    identifier: [
      { system: `${PAYER_LICENSE}/${request.payerLicense}/coverageeligibilityresponse`, value: id },
    ],
    status: "active",
    purpose: asked.purpose,
    patient: { reference: urls.patient },
    ...(asked.servicedDate === undefined ? {} : { servicedDate: asked.servicedDate }),
    ...(asked.servicedPeriod === undefined ? {} : { servicedPeriod: asked.servicedPeriod }),
    created: at.toISOString(),
    requestor: { reference: url(request.provider.index) },
    request: {
      identifier: asked.identifier?.[0]?.value
        ? { system: asked.identifier[0].system, value: asked.identifier[0].value }
        : { value: asked.id ?? url(request.focus.index) },
    },
    ...body,
    insurer: { reference: urls.insurer },
  };
  return responseMessageOf(
    {
      event: "eligibility-response",
      requestMessageId: message.header.id,
      providerLicense: request.providerLicense,
      payerLicense: request.payerLicense,
      at,
    },
    response,
    [...referencedBy(request, found).map((entry) => message.received(entry)), ...own],
  );
}
