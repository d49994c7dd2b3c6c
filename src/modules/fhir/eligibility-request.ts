import { EXTENSION, PAYER_LICENSE, PROVIDER_LICENSE } from "../../reference/nphies-fhir.js";
import type { Entry, Message } from "./bundle.js";
import type { FhirCoverage, FhirEligibilityRequest, FhirOrganization, FhirPatient } from "./schemas.js";
import type { SubjectKeys } from "./subject.js";
import { identifierValues, licenceOf } from "./values.js";

type Resolved = Entry<{ resourceType: string; id?: string | undefined }>;

/** a Coverage the request asks about, with what names the member and the policy in it */
export interface AskedCoverage {
  entry: Entry<FhirCoverage>;
  /** Coverage.identifier values and subscriberId: the payer's member ids */
  memberIds: string[];
  /** every class value (plan, group, ...): a policy number or holder code */
  classValues: string[];
  /** the resources it references (beneficiary, subscriber, payor), carried again by the response */
  referenced: Resolved[];
}

/** an eligibility-request as read from its message: every reference resolved inside the bundle */
export interface EligibilityRequest {
  focus: Entry<FhirEligibilityRequest>;
  /** the request's patient: for a newborn, the newborn */
  patient: Entry<FhirPatient>;
  provider: Entry<FhirOrganization>;
  insurer: Entry<FhirOrganization>;
  coverages: AskedCoverage[];
  /** the Patients whose identifiers name the member: the patient and the Coverage's beneficiary and
   * subscriber; for a newborn only these (the mother) */
  holders: Entry<FhirPatient>[];
  newborn: boolean;
  /** the day eligibility is asked for (YYYY-MM-DD): servicedDate, servicedPeriod.start, else created */
  day: string;
  providerLicense: string;
  payerLicense: string;
  discovery: boolean;
  benefits: boolean;
}

/** the member and policy keys a message carries, for findSubject */
export function keysOf(request: EligibilityRequest): SubjectKeys {
  return {
    memberIds: [...new Set(request.coverages.flatMap((coverage) => coverage.memberIds))],
    patientIds: [...new Set(request.holders.flatMap((holder) => identifierValues(holder.resource)))],
    classValues: [...new Set(request.coverages.flatMap((coverage) => coverage.classValues))],
  };
}

/** an optional reference resolved when it points inside the bundle by `reference` (an identifier alone is kept as sent) */
function resolveIfSent<K extends "Patient" | "Organization">(
  message: Message,
  reference: { reference?: string | undefined } | undefined,
  path: string,
  type: K,
) {
  return reference?.reference === undefined ? undefined : message.resolve(reference, path, type);
}

function readCoverage(message: Message, coverage: Entry<FhirCoverage>): AskedCoverage {
  const { resource, path } = coverage;
  const referenced: Resolved[] = [
    resolveIfSent(message, resource.beneficiary, `${path}.beneficiary`, "Patient"),
    resolveIfSent(message, resource.subscriber, `${path}.subscriber`, "Patient"),
    ...(resource.payor ?? []).map((payor, index) =>
      resolveIfSent(message, payor, `${path}.payor[${index}]`, "Organization"),
    ),
  ].flatMap((entry) => (entry === undefined ? [] : [entry]));
  return {
    entry: coverage,
    memberIds: [...identifierValues(resource), ...(resource.subscriberId ? [resource.subscriberId] : [])],
    classValues: (resource.class ?? []).map((entry) => entry.value),
    referenced,
  };
}

const isPatient = (entry: Resolved): entry is Entry<FhirPatient> => entry.resource.resourceType === "Patient";

/**
 * Reads the eligibility-request a message is about. Refuses (400, each problem by FHIRPath) only what is not
 * a well-formed message: a focus that is not a CoverageEligibilityRequest, a reference that resolves nowhere
 * or to the wrong type, a provider named by no licence.
 */
export function readEligibilityRequest(message: Message): EligibilityRequest {
  const { problems, header } = message;
  const focus = message.resolve(
    header.focus[0],
    "Bundle.entry[0].resource.focus[0]",
    "CoverageEligibilityRequest",
  );
  problems.throwIfAny();
  if (focus === undefined) throw new Error("unreachable: an unresolved focus is a problem");
  const request = focus.resource;
  const patient = message.resolve(request.patient, `${focus.path}.patient`, "Patient");
  const provider = message.resolve(request.provider, `${focus.path}.provider`, "Organization");
  const insurer = message.resolve(request.insurer, `${focus.path}.insurer`, "Organization");
  const coverages = (request.insurance ?? []).flatMap((insurance, index) => {
    const entry = message.resolve(
      insurance.coverage,
      `${focus.path}.insurance[${index}].coverage`,
      "Coverage",
    );
    return entry === undefined ? [] : [readCoverage(message, entry)];
  });
  const sender = header.sender?.identifier;
  const providerLicense =
    licenceOf(provider?.resource, PROVIDER_LICENSE) ??
    (sender?.system === PROVIDER_LICENSE ? sender.value : undefined);
  if (provider !== undefined && providerLicense === undefined)
    problems.add(`${provider.path}.identifier`, `must hold the provider's licence (${PROVIDER_LICENSE})`);
  problems.throwIfAny();
  if (patient === undefined || provider === undefined || insurer === undefined)
    throw new Error("unreachable: unresolved references are problems");
  const receiver = header.destination?.[0]?.receiver?.identifier;
  const newborn = (request.extension ?? []).some(
    (extension) => extension.url === EXTENSION.newborn && extension.valueBoolean === true,
  );
  // the Coverage's beneficiary and subscriber name the member; a newborn (its own MRN) rides on its mother's
  const named = coverages.flatMap((coverage) => coverage.referenced.filter(isPatient));
  const holders = [
    ...new Map([...(newborn ? [] : [patient]), ...named].map((entry) => [entry.index, entry])).values(),
  ];
  const served = request.servicedDate ?? request.servicedPeriod?.start ?? request.created;
  return {
    focus,
    patient,
    provider,
    insurer,
    coverages,
    holders: holders.length > 0 ? holders : [patient],
    newborn,
    day: served.slice(0, 10),
    providerLicense: providerLicense ?? "",
    payerLicense:
      (receiver?.system === PAYER_LICENSE ? receiver.value : undefined) ??
      licenceOf(insurer.resource, PAYER_LICENSE) ??
      "",
    discovery: request.purpose.includes("discovery"),
    benefits: request.purpose.includes("benefits"),
  };
}
