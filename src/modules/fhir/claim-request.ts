import { createHash } from "node:crypto";
import {
  CLAIM_SUB_TYPE,
  CLAIM_TYPE,
  type ClaimEvent,
  CS,
  EXTENSION,
  type FhirClaimType,
  HL7,
  MARITAL_STATUS,
  PAYER_LICENSE,
  PROVIDER_LICENSE,
  SD,
} from "../../reference/nphies-fhir.js";
import type { CreateInput } from "../prior-auth/schemas.js";
import type { Entry, Message } from "./bundle.js";
import { diagnosesOf, encounterOf } from "./claim-facts.js";
import { itemsOf, supportingInfoOf } from "./claim-items.js";
import type { FhirOrigin } from "./origin.js";
import type { FhirClaim, FhirCoverage, FhirPatient } from "./schemas.js";
import type { SubjectKeys } from "./subject.js";
import { codeIn, coverageClass, identifierValues, instantOf, licenceOf } from "./values.js";

/** a profile matches when it names the expected StructureDefinition, with any version or none */
const isProfile = (profile: string, name: string) => profile.split("|")[0] === `${SD}${name}`;

const EXPECTED_USE = { "priorauth-request": "preauthorization", "claim-request": "claim" } as const;

function checkClaimKind(
  claim: Entry<FhirClaim>,
  event: ClaimEvent,
  message: Message,
): FhirClaimType | undefined {
  const { problems } = message;
  const path = claim.path;
  if (claim.resource.use !== EXPECTED_USE[event])
    problems.add(`${path}.use`, `must be ${EXPECTED_USE[event]} in a ${event}`);
  const type = codeIn(claim.resource.type, `${HL7}claim-type`)?.code;
  if (type === undefined || !(type in CLAIM_TYPE)) {
    problems.add(
      `${path}.type.coding`,
      `must hold a ${HL7}claim-type coding: ${Object.keys(CLAIM_TYPE).join(", ")}`,
    );
    return undefined;
  }
  const fhirType = type as FhirClaimType;
  const expected = `${fhirType}-${event === "claim-request" ? "claim" : "priorauth"}`;
  claim.resource.meta?.profile?.forEach((profile, index) => {
    if (profile.startsWith(SD) && !isProfile(profile, expected))
      problems.add(`${path}.meta.profile[${index}]`, `must be ${SD}${expected} for a ${fhirType} ${event}`);
  });
  return fhirType;
}

/** a Claim extension's entry by its StructureDefinition url */
const extensionOf = (claim: FhirClaim, url: string) =>
  claim.extension?.find((extension) => extension.url === url);

/** the Claim as received, hashed: the same Claim resent carries the same elements in the same order */
const claimHashOf = (claim: FhirClaim): string =>
  createHash("sha256").update(JSON.stringify(claim)).digest("hex");

/** where the message names what the create looks up, for the answers about it */
export interface ClaimPaths {
  identifier: string;
  member: string;
  provider: string;
  diagnoses: string;
}

/** what the patient's own resource says of it, when it says it */
export interface PatientFacts {
  gender: "MALE" | "FEMALE" | undefined;
  dateOfBirth: string | undefined;
  maritalStatus: CreateInput["marital_status"];
}

/** a priorauth-request or claim-request as read from its message, before the payer's data is consulted */
export interface ClaimRead {
  event: ClaimEvent;
  keys: SubjectKeys;
  /** the day of service (YYYY-MM-DD): the member's policy must be in force on it */
  day: string;
  /** Claim.priority deferred: answered queued now, the decision sent later */
  deferred: boolean;
  patient: PatientFacts;
  /** the create body but for who the member is and which policy covers it */
  request: Omit<CreateInput, "member_id" | "policy_no" | "ph_erp_id" | "member_gender" | "member_dob">;
  /** for lightweight tenants, which create what a request names: the keys the message itself gives */
  named: { memberId: string | undefined; policyNo: string | undefined; holder: string | undefined };
  origin: FhirOrigin;
  paths: ClaimPaths;
}

/** a partial FHIR date as its first day */
const fullDateOf = (date: string) =>
  date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date;

function patientFactsOf(patient: FhirPatient): PatientFacts {
  const marital = patient.maritalStatus?.coding?.[0]?.code;
  const gender = patient.gender?.toLowerCase();
  return {
    gender: gender === "male" ? "MALE" : gender === "female" ? "FEMALE" : undefined,
    dateOfBirth: patient.birthDate === undefined ? undefined : instantOf(fullDateOf(patient.birthDate)),
    maritalStatus: (marital === undefined ? undefined : MARITAL_STATUS[marital]) ?? "UNKNOWN",
  };
}

/**
 * Who the message says the member is: the Coverage's member ids, then the identifiers of the Coverage's
 * beneficiary and subscriber (a newborn rides on its mother's membership) and of the Claim's patient.
 */
function subjectKeysOf(
  message: Message,
  patient: Entry<FhirPatient>,
  coverage: Entry<FhirCoverage> | undefined,
): SubjectKeys {
  const c = coverage?.resource;
  const beneficiary = message.find(c?.beneficiary, "Patient");
  const subscriber = message.find(c?.subscriber, "Patient");
  const patientIds = [beneficiary, subscriber, patient].flatMap((entry) => identifierValues(entry?.resource));
  return {
    memberIds: [...identifierValues(c), ...(c?.subscriberId ? [c.subscriberId] : [])],
    patientIds: [...new Set(patientIds)],
    classValues: (c?.class ?? []).map((entry) => entry.value),
  };
}

/**
 * The Patients and Organizations of the message that the echoed resources reference besides themselves (a
 * Coverage's subscriber or policy holder, a newborn's mother): a response references only what it holds.
 */
function relatedEntriesOf(message: Message, echoed: (Entry<{ resourceType: string }> | undefined)[]) {
  const kept = new Set(echoed.flatMap((entry) => (entry === undefined ? [] : [entry.index])));
  return message.bundle.entry.flatMap((entry, index) =>
    !kept.has(index) &&
    (entry.resource.resourceType === "Patient" || entry.resource.resourceType === "Organization")
      ? [{ fullUrl: entry.fullUrl, resource: entry.resource }]
      : [],
  );
}

/** the Claim's focal insurance (or the first) and its Coverage, when the request names one */
function coverageOf(claim: Entry<FhirClaim>, message: Message) {
  const insurances = claim.resource.insurance ?? [];
  const focal = insurances.findIndex((insurance) => insurance.focal);
  const index = focal === -1 ? 0 : focal;
  const insurance = insurances[index];
  if (insurance === undefined) return { insurance, coverage: undefined };
  const coverage = message.resolve(
    insurance.coverage,
    `${claim.path}.insurance[${index}].coverage`,
    "Coverage",
  );
  return { insurance, coverage };
}

function doctorOf(claim: Entry<FhirClaim>, message: Message) {
  const careTeam = claim.resource.careTeam?.[0];
  const doctor =
    message.find(careTeam?.provider, "Practitioner")?.resource ??
    message.find(careTeam?.provider, "PractitionerRole")?.resource;
  const name = doctor?.name?.[0];
  return {
    ...(doctor?.identifier?.[0]?.value ? { doctor_id: doctor.identifier[0].value.slice(0, 255) } : {}),
    ...(name
      ? { doctor_name: (name.text ?? [...(name.given ?? []), name.family].join(" ")).slice(0, 255) }
      : {}),
    ...(careTeam?.qualification?.coding?.[0]?.code
      ? { doctor_speciality: careTeam.qualification.coding[0].code.slice(0, 255) }
      : {}),
  };
}

/**
 * Reads a priorauth-request or claim-request into the engine's request (the JSON API's create body, but
 * for the member and policy the payer's data decides) and what the response bundles need. Refuses (400
 * OperationOutcome) only what is not a well-formed message, each problem named by FHIRPath.
 */
export function readClaimRequest(message: Message, event: ClaimEvent): ClaimRead {
  const { problems, header } = message;
  const claim = message.resolve(header.focus[0], "Bundle.entry[0].resource.focus[0]", "Claim");
  problems.throwIfAny();
  if (claim === undefined) throw new Error("unreachable: an unresolved focus is a problem");
  const c = claim.resource;
  const claimType = checkClaimKind(claim, event, message);
  const patient = message.resolve(c.patient, `${claim.path}.patient`, "Patient");
  const provider = message.resolve(c.provider, `${claim.path}.provider`, "Organization");
  const insurer = c.insurer === undefined ? undefined : message.find(c.insurer, "Organization");
  const { insurance, coverage } = coverageOf(claim, message);
  const encounterReference = extensionOf(c, EXTENSION.encounter)?.valueReference;
  const encounter =
    encounterReference === undefined
      ? message.all("Encounter")[0]
      : message.resolve(encounterReference, `${claim.path}.extension`, "Encounter");
  const providerLicense =
    licenceOf(provider?.resource, PROVIDER_LICENSE) ??
    (header.sender?.identifier?.system === PROVIDER_LICENSE ? header.sender.identifier.value : undefined) ??
    provider?.resource.identifier?.[0]?.value;
  if (provider !== undefined && providerLicense === undefined)
    problems.add(`${provider.path}.identifier`, `must hold the provider's licence (${PROVIDER_LICENSE})`);
  const diagnoses = diagnosesOf(claim, message);
  const items = claimType === undefined ? [] : itemsOf(claim, claimType, message);
  const supportingInfo = supportingInfoOf(claim, c.created, message);
  problems.throwIfAny();
  if (patient === undefined || provider === undefined || claimType === undefined)
    throw new Error("unreachable: unresolved references are problems");

  const identifier = c.identifier[0] as FhirClaim["identifier"][number];
  const days = c.item.flatMap((item) =>
    [item.servicedDate, item.servicedPeriod?.start].flatMap((day) => (day ? [instantOf(day)] : [])),
  );
  const treatment =
    days.sort()[0] ??
    (encounter?.resource.period?.start ? instantOf(encounter.resource.period.start) : undefined) ??
    (c.billablePeriod?.start ? instantOf(c.billablePeriod.start) : instantOf(c.created));
  const subType = codeIn(c.subType, `${CS}claim-subtype`)?.code;
  const claimSubType =
    subType !== undefined && subType in CLAIM_SUB_TYPE
      ? CLAIM_SUB_TYPE[subType as keyof typeof CLAIM_SUB_TYPE]
      : claimType === "institutional"
        ? "IN_PATIENT"
        : "OUT_PATIENT";
  const related = c.related?.find((entry) => entry.claim?.identifier?.value)?.claim?.identifier?.value;
  const newborn = extensionOf(c, EXTENSION.newborn)?.valueBoolean === true;
  const request: ClaimRead["request"] = {
    authorization_number:
      (event === "claim-request" ? insurance?.preAuthRef?.[0] : undefined) ?? identifier.value,
    transaction_id: identifier.value,
    transaction_type: event === "claim-request" ? "CLAIM" : "PREAUTH",
    ...(related === undefined ? {} : { related_authorization_number: related.slice(0, 255) }),
    medical_provider_cchi_no: providerLicense ?? "",
    marital_status: patientFactsOf(patient.resource).maritalStatus,
    treatment_date: treatment,
    request_date: instantOf(c.created),
    claim_type: CLAIM_TYPE[claimType],
    claim_sub_type: claimSubType,
    is_emergency: claimSubType === "EMERGENCY" || encounter?.resource.class?.code === "EMER",
    is_maternity: extensionOf(c, EXTENSION.maternity)?.valueBoolean === true,
    is_new_born: newborn,
    diagnoses,
    items: items.map((item) => item.input),
    ...doctorOf(claim, message),
    currency: "SAR",
    ...(message.bundle.id === undefined ? {} : { nphies_bundle_id: message.bundle.id.slice(0, 255) }),
    ...(encounter === undefined ? {} : { encounter: encounterOf(encounter.resource) }),
    ...(supportingInfo.length === 0 ? {} : { supporting_info: supportingInfo }),
  };
  const keys = subjectKeysOf(message, patient, coverage);
  const origin: FhirOrigin = {
    event,
    bundle_id: message.bundle.id ?? null,
    message_id: header.id,
    claim_id: c.id ?? null,
    claim_identifier: { system: identifier.system ?? null, value: identifier.value },
    claim_hash: claimHashOf(c),
    provider_license: providerLicense ?? "",
    payer_license:
      header.destination?.[0]?.receiver?.identifier?.value ??
      licenceOf(insurer?.resource, PAYER_LICENSE) ??
      null,
    claim_type: claimType,
    claim_sub_type: subType ?? null,
    patient: message.received(patient),
    coverage: coverage === undefined ? null : message.received(coverage),
    provider: message.received(provider),
    insurer: insurer === undefined ? null : message.received(insurer),
    items: items.map((item) => item.origin),
    deferred: codeIn(c.priority, `${HL7}processpriority`)?.code === "deferred",
    transfer: extensionOf(c, EXTENSION.transfer)?.valueBoolean === true,
    resubmission: c.related?.some(
      (entry) => codeIn(entry.relationship, `${CS}related-claim-relationship`)?.code === "prior",
    ),
    related: relatedEntriesOf(message, [patient, coverage, provider, insurer]),
  };
  return {
    event,
    keys,
    day: treatment.slice(0, 10),
    deferred: origin.deferred === true,
    patient: patientFactsOf(patient.resource),
    request,
    named: {
      memberId: keys.memberIds[0] ?? keys.patientIds[0],
      policyNo:
        (coverage &&
          (coverageClass(coverage.resource, "plan") ?? coverageClass(coverage.resource, "group"))) ??
        undefined,
      holder:
        (coverage &&
          (coverageClass(coverage.resource, "group") ??
            message.find(coverage.resource.policyHolder, "Organization")?.resource.identifier?.[0]?.value)) ??
        undefined,
    },
    origin,
    paths: {
      identifier: `${claim.path}.identifier[0].value`,
      member: coverage === undefined ? `${patient.path}.identifier` : `${coverage.path}.identifier`,
      provider: `${provider.path}.identifier`,
      diagnoses: `${claim.path}.diagnosis`,
    },
  };
}

/** the create body once the payer's data has said who the member is and which policy covers it */
export function createInputOf(
  read: ClaimRead,
  member: { memberId: string; gender: "MALE" | "FEMALE" | undefined; dateOfBirth: string | undefined },
  policy: { policy_no: string; ph_erp_id: string },
): CreateInput {
  return {
    ...read.request,
    member_id: member.memberId,
    policy_no: policy.policy_no,
    ph_erp_id: policy.ph_erp_id,
    // a newborn under its mother's membership is described by the request; otherwise the file decides
    member_gender: read.patient.gender ?? member.gender ?? "FEMALE",
    member_dob: read.patient.dateOfBirth ?? member.dateOfBirth ?? read.request.request_date,
  };
}
