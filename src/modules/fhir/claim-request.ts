import { createHash } from "node:crypto";
import {
  CLAIM_SUB_TYPE,
  CLAIM_TYPE,
  type ClaimEvent,
  CS,
  EXTENSION,
  type FhirClaimType,
  HL7,
  ICD10_AM,
  MARITAL_STATUS,
  PAYER_LICENSE,
  PROVIDER_LICENSE,
  SD,
} from "../../reference/nphies-fhir.js";
import type { FhirOrigin } from "./origin.js";
import type { CreateInput } from "../prior-auth/schemas.js";
import type { Entry, Message } from "./bundle.js";
import { itemsOf, supportingInfoOf } from "./claim-items.js";
import type { FhirClaim, FhirCoverage, FhirEncounter, FhirPatient } from "./schemas.js";
import { codeIn, coverageClass, instantOf, licenceOf } from "./values.js";

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
  const subType = claim.resource.subType;
  if (subType !== undefined) {
    const code = codeIn(subType, `${CS}claim-subtype`)?.code;
    if (code === undefined || !(code in CLAIM_SUB_TYPE))
      problems.add(
        `${path}.subType.coding`,
        `must hold a ${CS}claim-subtype coding: ${Object.keys(CLAIM_SUB_TYPE).join(", ")}`,
      );
  }
  return fhirType;
}

function diagnosesOf(claim: Entry<FhirClaim>, message: Message): CreateInput["diagnoses"] {
  const diagnoses = claim.resource.diagnosis.map((diagnosis, index) => {
    const path = `${claim.path}.diagnosis[${index}]`;
    const coding = codeIn(diagnosis.diagnosisCodeableConcept, ICD10_AM);
    if (coding?.code === undefined)
      message.problems.add(
        `${path}.diagnosisCodeableConcept.coding`,
        `must hold an ICD-10-AM coding (${ICD10_AM})`,
      );
    const type = diagnosis.type?.map((concept) => codeIn(concept, `${CS}diagnosis-type`)?.code);
    return {
      type: type?.includes("principal") ? ("primary" as const) : ("secondary" as const),
      code: coding?.code ?? "",
      ...(coding?.display ? { name: coding.display.slice(0, 255) } : {}),
    };
  });
  const principal = diagnoses.filter((diagnosis) => diagnosis.type === "primary").length;
  if (principal > 1)
    message.problems.add(
      `${claim.path}.diagnosis`,
      `must hold one diagnosis of type principal (${CS}diagnosis-type), found ${principal}`,
    );
  // none typed principal: the first by sequence is, as a provider lists its main diagnosis first
  if (principal === 0) {
    const first = claim.resource.diagnosis.reduce(
      (lowest, diagnosis, index, all) =>
        diagnosis.sequence < (all[lowest]?.sequence ?? Number.POSITIVE_INFINITY) ? index : lowest,
      0,
    );
    return diagnoses.map((diagnosis, index) =>
      index === first ? { ...diagnosis, type: "primary" as const } : diagnosis,
    );
  }
  return diagnoses;
}

function encounterOf(encounter: FhirEncounter | undefined): CreateInput["encounter"] {
  if (encounter === undefined) return undefined;
  const text = (value: string | undefined) => value?.slice(0, 255);
  const fields = {
    encounter_id: text(encounter.identifier?.[0]?.value ?? encounter.id),
    encounter_status: text(encounter.status),
    encounter_class: text(encounter.class?.code),
    encounter_priority: text(encounter.priority?.coding?.[0]?.code),
    encounter_start_date: text(encounter.period?.start),
    encounter_end_date: text(encounter.period?.end),
    encounter_admit_source: text(encounter.hospitalization?.admitSource?.coding?.[0]?.code),
    encounter_discharge: text(encounter.hospitalization?.dischargeDisposition?.coding?.[0]?.code),
    encounter_department: text(encounter.serviceType?.coding?.[0]?.code),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function classValue(coverage: Entry<FhirCoverage>, type: "plan" | "group", message: Message) {
  const found = coverageClass(coverage.resource, type);
  if (found === undefined)
    message.problems.add(
      `${coverage.path}.class`,
      `must hold a class of type ${type} (${type === "plan" ? "the policy number" : "the policy holder"})`,
    );
  return found ?? "";
}

function patientFacts(patient: Entry<FhirPatient>) {
  const marital = patient.resource.maritalStatus?.coding?.[0]?.code;
  return {
    member_dob: instantOf(patient.resource.birthDate),
    member_gender: patient.resource.gender === "male" ? ("MALE" as const) : ("FEMALE" as const),
    marital_status: (marital === undefined ? undefined : MARITAL_STATUS[marital]) ?? ("UNKNOWN" as const),
  };
}

/** the Claim as received, hashed: the same Claim resent carries the same elements in the same order */
const claimHashOf = (claim: FhirClaim): string =>
  createHash("sha256").update(JSON.stringify(claim)).digest("hex");

/** where the message names what the create looks up, for its not-found answers */
export interface ClaimPaths {
  identifier: string;
  member: string;
  policy: string;
  provider: string;
  diagnoses: string;
}

/**
 * A priorauth-request or claim-request as the engine's request (the JSON API's create body) and what the
 * response bundles need of the message. README "NPHIES FHIR interface" maps each field. Refuses (400
 * OperationOutcome) on any problem, each named by FHIRPath.
 */
export function claimRequestOf(
  message: Message,
  event: ClaimEvent,
): { input: CreateInput; origin: FhirOrigin; paths: ClaimPaths } {
  const { problems, header } = message;
  const claim = message.resolve(header.focus[0], "Bundle.entry[0].resource.focus[0]", "Claim");
  problems.throwIfAny();
  if (claim === undefined) throw new Error("unreachable: an unresolved focus is a problem");
  const c = claim.resource;
  const claimType = checkClaimKind(claim, event, message);
  const patient = message.resolve(c.patient, `${claim.path}.patient`, "Patient");
  const provider = message.resolve(c.provider, `${claim.path}.provider`, "Organization");
  const insurer =
    c.insurer === undefined ? undefined : message.resolve(c.insurer, `${claim.path}.insurer`, "Organization");
  const focal = c.insurance.findIndex((insurance) => insurance.focal);
  const insuranceIndex = focal === -1 ? 0 : focal;
  const insurance = c.insurance[insuranceIndex];
  const coverage = message.resolve(
    insurance?.coverage,
    `${claim.path}.insurance[${insuranceIndex}].coverage`,
    "Coverage",
  );
  const encounterReference = c.extension?.find(
    (extension) => extension.url === EXTENSION.encounter,
  )?.valueReference;
  const encounter =
    encounterReference === undefined
      ? undefined
      : message.resolve(encounterReference, `${claim.path}.extension`, "Encounter");
  if (claimType === "institutional" && encounterReference === undefined)
    problems.add(`${claim.path}.extension`, `an institutional request must carry ${EXTENSION.encounter}`);
  const careTeam = c.careTeam?.[0];
  const practitioner =
    careTeam === undefined
      ? undefined
      : message.resolve(careTeam.provider, `${claim.path}.careTeam[0].provider`, "Practitioner");
  const providerLicense = licenceOf(provider?.resource, PROVIDER_LICENSE);
  if (provider !== undefined && providerLicense === undefined)
    problems.add(`${provider.path}.identifier`, `must hold the provider's licence (${PROVIDER_LICENSE})`);
  const memberId = coverage?.resource.identifier[0]?.value;
  if (coverage !== undefined && memberId === undefined)
    problems.add(`${coverage.path}.identifier[0].value`, "is required: the member's id with the payer");
  const policyNo = coverage === undefined ? "" : classValue(coverage, "plan", message);
  const holder = coverage === undefined ? "" : classValue(coverage, "group", message);
  const diagnoses = diagnosesOf(claim, message);
  const items = claimType === undefined ? [] : itemsOf(claim, claimType, message);
  const supportingInfo = supportingInfoOf(claim, c.created, message);
  problems.throwIfAny();
  if (patient === undefined || coverage === undefined || provider === undefined || claimType === undefined)
    throw new Error("unreachable: unresolved references are problems");

  const identifier = c.identifier[0] as FhirClaim["identifier"][number];
  const days = c.item.flatMap((item) =>
    [item.servicedDate, item.servicedPeriod?.start].flatMap((day) => (day ? [instantOf(day)] : [])),
  );
  const subType = codeIn(c.subType, `${CS}claim-subtype`)?.code as keyof typeof CLAIM_SUB_TYPE | undefined;
  const claimSubType =
    subType === undefined
      ? claimType === "institutional"
        ? "IN_PATIENT"
        : "OUT_PATIENT"
      : CLAIM_SUB_TYPE[subType];
  const related = c.related?.find((entry) => entry.claim?.identifier?.value)?.claim?.identifier?.value;
  const doctor = practitioner?.resource;
  const input: CreateInput = {
    authorization_number:
      (event === "claim-request" ? insurance?.preAuthRef?.[0] : undefined) ?? identifier.value,
    transaction_id: identifier.value,
    transaction_type: event === "claim-request" ? "CLAIM" : "PREAUTH",
    policy_no: policyNo,
    ph_erp_id: holder,
    ...(related === undefined ? {} : { related_authorization_number: related }),
    medical_provider_cchi_no: providerLicense ?? "",
    member_id: memberId ?? "",
    ...patientFacts(patient),
    treatment_date:
      days.sort()[0] ?? (c.billablePeriod?.start ? instantOf(c.billablePeriod.start) : instantOf(c.created)),
    request_date: instantOf(c.created),
    claim_type: CLAIM_TYPE[claimType],
    claim_sub_type: claimSubType,
    is_emergency: claimSubType === "EMERGENCY" || encounter?.resource.class?.code === "EMER",
    is_new_born: c.extension?.find((extension) => extension.url === EXTENSION.newborn)?.valueBoolean ?? false,
    diagnoses,
    items: items.map((item) => item.input),
    ...(doctor?.identifier?.[0]?.value ? { doctor_id: doctor.identifier[0].value } : {}),
    ...(doctor?.name?.[0]
      ? {
          doctor_name: (
            doctor.name[0].text ?? [...(doctor.name[0].given ?? []), doctor.name[0].family].join(" ")
          ).slice(0, 255),
        }
      : {}),
    ...(careTeam?.qualification?.coding?.[0]?.code
      ? { doctor_speciality: careTeam.qualification.coding[0].code }
      : {}),
    currency: "SAR",
    ...(message.bundle.id === undefined ? {} : { nphies_bundle_id: message.bundle.id }),
    ...(encounter === undefined ? {} : { encounter: encounterOf(encounter.resource) }),
    ...(supportingInfo.length === 0 ? {} : { supporting_info: supportingInfo }),
  };
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
    coverage: message.received(coverage),
    provider: message.received(provider),
    insurer: insurer === undefined ? null : message.received(insurer),
    items: items.map((item) => ({
      sequence: item.sequence,
      tax: item.tax,
      patient_share: item.patientShare,
    })),
  };
  const paths: ClaimPaths = {
    identifier: `${claim.path}.identifier[0].value`,
    member: `${coverage.path}.identifier[0].value`,
    policy: `${coverage.path}.class`,
    provider: `${provider.path}.identifier`,
    diagnoses: `${claim.path}.diagnosis`,
  };
  return { input, origin, paths };
}
