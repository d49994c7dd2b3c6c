/**
 * The NPHIES FHIR messaging vocabulary a payer endpoint reads and writes: profile and code-system
 * addresses, message events, and the claim types and code systems the profiles bind. README section
 * "NPHIES FHIR interface" maps each onto the engine's request.
 */

export const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
export const CS = "http://nphies.sa/terminology/CodeSystem/";
export const HL7 = "http://terminology.hl7.org/CodeSystem/";
/** the version emitted on every profile reference; any version (or none) is accepted */
export const PROFILE_VERSION = "1.0.0";
export const profile = (name: string): string => `${SD}${name}|${PROFILE_VERSION}`;

export const MESSAGE_EVENTS = `${CS}ksa-message-events`;
export const PROVIDER_LICENSE = "http://nphies.sa/license/provider-license";
export const PAYER_LICENSE = "http://nphies.sa/license/payer-license";
export const ICD10_AM = "http://hl7.org/fhir/sid/icd-10-am";
export const ADJUDICATION_REASON = `${CS}adjudication-reason`;
export const ADJUDICATION_OUTCOME = `${CS}adjudication-outcome`;
/** the engine's own reasons that NPHIES has no code for (the anomaly score's) */
export const ENGINE_REASON = "urn:mizan:engine-reason";

/** the events a payer receives from NPHIES, and the response event of each */
export const RESPONSE_EVENT = {
  "priorauth-request": "priorauth-response",
  "claim-request": "claim-response",
  "eligibility-request": "eligibility-response",
  "cancel-request": "cancel-response",
  "status-check": "status-response",
  communication: "acknowledgement",
  "batch-request": "batch-response",
  "error-notice": "acknowledgement",
} as const;
export type RequestEvent = keyof typeof RESPONSE_EVENT;
export type ClaimEvent = "priorauth-request" | "claim-request";

/** Claim.type (HL7 claim-type) to the engine's claim type */
export const CLAIM_TYPE = {
  institutional: "INSTITUTIONAL",
  professional: "PROFESSIONAL",
  pharmacy: "PHARMACY",
  oral: "DENTAL",
  vision: "OPTICAL",
} as const;
export type FhirClaimType = keyof typeof CLAIM_TYPE;

/** Claim.subType (NPHIES claim-subtype) to the engine's sub-type */
export const CLAIM_SUB_TYPE = { ip: "IN_PATIENT", op: "OUT_PATIENT", emr: "EMERGENCY" } as const;

type ServiceType = "AMBULATORY" | "CONSULTATION" | "PHARMACEUTICAL" | "DEVICE" | "OPTICAL" | "DENTAL";

/** the code systems an item's productOrService is bound to, with the service type each means */
export const SERVICE_SYSTEMS: Record<string, ServiceType> = {
  [`${CS}services`]: "AMBULATORY",
  [`${CS}procedures`]: "AMBULATORY",
  [`${CS}laboratory`]: "AMBULATORY",
  [`${CS}imaging`]: "AMBULATORY",
  [`${CS}medication-codes`]: "PHARMACEUTICAL",
  [`${CS}scientific-codes`]: "PHARMACEUTICAL",
  [`${CS}medical-devices`]: "DEVICE",
  [`${CS}oral-health-op`]: "DENTAL",
  [`${CS}oral-health-ip`]: "DENTAL",
};

/** supportingInfo.category (claim-information-category) to the supporting-info codes of the JSON API */
export const INFORMATION_CATEGORY = {
  info: "INFO",
  onset: "ONSET",
  attachment: "ATTACHMENT",
  missingtooth: "MISSING_TOOTH",
  hospitalized: "OTHER",
  employmentImpacted: "EMPLOYMENT_IMPACTED",
  "reason-for-visit": "REASON_FOR_VISIT",
  "vital-sign-weight": "VITAL_SIGN_WEIGHT",
  "vital-sign-systolic": "VITAL_SIGN_SYSTOLIC",
  "vital-sign-diastolic": "VITAL_SIGN_DIASTOLIC",
  "vital-sign-height": "VITAL_SIGN_HEIGHT",
  "icu-hours": "ICU_HOURS",
  "ventilation-hours": "VENTILATION_HOURS",
  "days-supply": "DAYS_SUPPLY",
  "lab-test": "LAB_TEST",
  "chief-complaint": "CHIEF_COMPLAINT",
  temperature: "TEMPERATURE",
  pulse: "PULSE",
  "oxygen-saturation": "OXYGEN_SATURATION",
  "respiratory-rate": "RESPIRATORY_RATE",
  "birth-weight": "BIRTH_WEIGHT",
  morphology: "MORPHOLOGY",
  "last-menstrual-period": "LAST_MENSTRUAL_PERIOD",
  "treatment-plan": "TREATMENT_PLAN",
  "patient-history": "PATIENT_HISTORY",
  "physical-examination": "PHYSICAL_EXAMINATION",
  "history-of-present-illness": "HISTORY_OF_PRESENT_ILLNESS",
  "investigation-result": "INVESTIGATION_RESULT",
  "admission-weight": "ADMISSION_WEIGHT",
  "estimated-Length-of-Stay": "ESTIMATED_LENGTH_OF_STAY",
} as const;

/** Patient.maritalStatus (HL7 v3 MaritalStatus) to the API's marital status */
export const MARITAL_STATUS: Record<string, "SINGLE" | "MARRIED" | "WIDOWED" | "DIVORCED" | "SEPARATED"> = {
  S: "SINGLE",
  U: "SINGLE",
  M: "MARRIED",
  W: "WIDOWED",
  D: "DIVORCED",
  L: "SEPARATED",
};

/** extensions read from a Claim and its items, and written on the response */
export const EXTENSION = {
  tax: `${SD}extension-tax`,
  patientShare: `${SD}extension-patient-share`,
  encounter: `${SD}extension-encounter`,
  newborn: `${SD}extension-newborn`,
  adjudicationOutcome: `${SD}extension-adjudication-outcome`,
  siteEligibility: `${SD}extension-siteEligibility`,
  reissue: `${SD}extension-adjudication-reissue`,
  transfer: `${SD}extension-transfer`,
  episode: `${SD}extension-episode`,
  eligibilityOfflineReference: `${SD}extension-eligibility-offline-reference`,
  eligibilityOfflineDate: `${SD}extension-eligibility-offline-date`,
  eligibilityResponse: `${SD}extension-eligibility-response`,
  authorizationOfflineDate: `${SD}extension-authorization-offline-date`,
  package: `${SD}extension-package`,
  maternity: `${SD}extension-maternity`,
  batchIdentifier: `${SD}extension-batch-identifier`,
  batchNumber: `${SD}extension-batch-number`,
  itemSequence: `${SD}extension-claimItemSequence`,
  patientInvoice: `${SD}extension-patientInvoice`,
  transferAuthorizationNumber: `${SD}extension-transferAuthorizationNumber`,
  transferAuthorizationPeriod: `${SD}extension-transferAuthorizationPeriod`,
  transferAuthorizationProvider: `${SD}extension-transferAuthorizationProvider`,
} as const;

/** coding systems of the claim items that are not NPHIES's own billing code lists */
export const SFDA_UNLISTED_DRUG = "99999999999999";

/**
 * The engine's NPHIES reasons (NDC001-NDC086, what the JSON API reports) in the adjudication-reason code
 * list of implementation guide v2.6 (AD/CV/MN/SE/BE codes), which a ClaimResponse is validated against.
 * A code without an entry here goes out as it is (the older list, still in use across releases).
 */
export const ADJUDICATION_REASON_V2: Readonly<Record<string, string>> = {
  NDC001: "BE-1-4",
  NDC002: "CV-1-3",
  NDC003: "CV-1-4",
  NDC017: "CV-1-8",
  NDC032: "CV-2-1",
  NDC033: "CV-2-1",
  NDC034: "AD-2-3",
  NDC035: "CV-1-1",
  NDC036: "CV-1-8",
  NDC038: "BE-1-3",
  NDC043: "CV-1-9",
  NDC045: "CV-4-6",
  NDC048: "SE-1-9",
  NDC051: "SE-1-9",
  NDC052: "AD-3-5",
  NDC053: "AD-3-6",
  NDC054: "AD-3-7",
  NDC055: "AD-3-8",
  NDC056: "CV-4-2",
  NDC060: "AD-1-4",
  NDC076: "AD-2-1",
  NDC079: "BE-1-3",
  NDC080: "AD-2-4",
  NDC081: "AD-2-4",
};

/** the displays of the v2.6 adjudication-reason codes the engine's reasons map to */
export const ADJUDICATION_REASON_V2_DISPLAY: Readonly<Record<string, string>> = {
  "AD-1-4": "Diagnosis is inconsistent with service/procedure",
  "AD-2-1": "Date of birth follows date of service/procedure",
  "AD-2-3": "Date of service/procedure is prior to coverage effective date",
  "AD-2-4": "Duplicate service/procedure code based on the date",
  "AD-3-5": "Diagnosis is inconsistent with patient's age",
  "AD-3-6": "Diagnosis is inconsistent with patient's gender",
  "AD-3-7": "Service/procedure is inconsistent with patient's age",
  "AD-3-8": "Service/procedure is inconsistent with patient's gender",
  "CV-1-1": "Provider is out of beneficiary network",
  "CV-1-3": "Diagnosis is not covered",
  "CV-1-4": "Service/procedure is not covered",
  "CV-1-8": "Annual limit/sublimit amount exceeded",
  "CV-1-9": "Consultation is within 14-day follow up period",
  "CV-2-1": "Patient is not a covered member",
  "CV-4-2": "Inappropriate medication duration",
  "CV-4-6": "Milk Products do not meet coverage criteria",
  "SE-1-9": "Quantity of service/procedure is inappropriate or missing",
  "BE-1-3": "Submission not compliant with contractual agreement between provider & payer",
  "BE-1-4": "Preauthorization is required and was not obtained",
};

/** the adjudication-error codes a payer answers a claim it cannot adjudicate with */
export const ADJUDICATION_ERROR = {
  memberNumberNotFound: { code: "1657", display: "Member number not found" },
  noMemberFound: { code: "1658", display: "No member found with the supplied patient credentials" },
  providerNotContracted: {
    code: "1659",
    display: "Provider license is not a contracted provider as of the date of service",
  },
  diagnosis: {
    code: "1413",
    display: "Incorrect value in element: [Claim.diagnosis.diagnosisCodeableConcept]",
  },
} as const;
export type AdjudicationError = (typeof ADJUDICATION_ERROR)[keyof typeof ADJUDICATION_ERROR];
