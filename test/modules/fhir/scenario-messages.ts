import type { TenantClient } from "../../helpers.js";
import { claimMessage, type Json, resourceOf } from "./bundles.js";
import { createPriceList } from "./fixtures.js";

/**
 * The elements the NPHIES payer test cases ask a request to carry ("Transaction specifications" of
 * test-cases/authorization and claims), added to a message built by claimMessage().
 */

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const CS = "http://nphies.sa/terminology/CodeSystem/";
const BASE = "http://provider.example.sa/fhir";
const coding = (system: string, code: string, display?: string) => ({
  coding: [{ system, code, ...(display ? { display } : {}) }],
});
const money = (value: number) => ({ value, currency: "SAR" });

export const claimOf = (bundle: Json): Json => resourceOf(bundle, "Claim");
export const identifierOf = (bundle: Json): Json => claimOf(bundle).identifier[0];

/** Claim.priority deferred: the test cases' way to ask for a queued answer */
export function deferred(bundle: Json): Json {
  claimOf(bundle).priority = coding("http://terminology.hl7.org/CodeSystem/processpriority", "deferred");
  return bundle;
}

/** appends supporting info (sequences after the Claim's own) and links it to the first item */
export function withInfo(bundle: Json, infos: Json[]): Json {
  const claim = claimOf(bundle);
  const start = (claim.supportingInfo ?? []).length;
  claim.supportingInfo = [
    ...(claim.supportingInfo ?? []),
    ...infos.map((info, index) => ({ sequence: start + index + 1, ...info })),
  ];
  claim.item[0].informationSequence = [
    ...(claim.item[0].informationSequence ?? []),
    ...infos.map((_, index) => start + index + 1),
  ];
  return bundle;
}

const category = (code: string) => coding(`${CS}claim-information-category`, code);
const quantity = (value: number, code: string) => ({ value, system: "http://unitsofmeasure.org", code });

/** vital signs, and the chief complaint as text and as an ICD code */
export const VITAL_SIGNS: Json[] = [
  { category: category("vital-sign-systolic"), valueQuantity: quantity(130, "mm[Hg]") },
  { category: category("vital-sign-diastolic"), valueQuantity: quantity(85, "mm[Hg]") },
  { category: category("vital-sign-height"), valueQuantity: quantity(160, "cm") },
  { category: category("vital-sign-weight"), valueQuantity: quantity(70, "kg") },
  {
    category: category("chief-complaint"),
    code: { ...coding("http://hl7.org/fhir/sid/icd-10-am", "R07.1"), text: "Chest pain on breathing" },
  },
];

/** a lab-test supporting info coded in LOINC (the test cases' codes) */
export const labTestInfo = (code: string): Json => ({
  category: category("lab-test"),
  code: coding("http://loinc.org", code),
  valueString: "within normal limits",
});

/** an attachment supporting info: a small PDF */
export const ATTACHMENT_INFO: Json = {
  category: category("attachment"),
  valueAttachment: { contentType: "application/pdf", title: "Discharge summary", data: "JVBERi0xLjQK" },
};

/** the first item becomes a package whose components are from several code lists (item.detail) */
export function asPackage(bundle: Json): Json {
  const item = claimOf(bundle).item[0];
  item.extension = item.extension.map((extension: Json) =>
    extension.url === `${SD}extension-package` ? { ...extension, valueBoolean: true } : extension,
  );
  const total = item.quantity.value * item.unitPrice.value;
  const parts: [string, string, number][] = [
    [`${CS}procedures`, "30571-00-00", 0.6],
    [`${CS}laboratory`, "80053", 0.25],
    [`${CS}imaging`, "56001-00-00", 0.15],
  ];
  item.detail = parts.map(([system, code, share], index) => ({
    sequence: index + 1,
    productOrService: coding(system, code),
    quantity: { value: 1 },
    unitPrice: money(total * share),
    net: money(total * share),
  }));
  return bundle;
}

/** the newborn of the request's patient: a second Patient by MRN, born weeks before, on its mother's cover */
export function newborn(bundle: Json, bornOn: string): Json {
  const claim = claimOf(bundle);
  claim.extension = [
    ...claim.extension.filter((extension: Json) => extension.url !== `${SD}extension-newborn`),
    { url: `${SD}extension-newborn`, valueBoolean: true },
  ];
  claim.patient = { reference: `${BASE}/Patient/NB1` };
  claim.diagnosis[0].diagnosisCodeableConcept = coding(
    "http://hl7.org/fhir/sid/icd-10-am",
    "Z38.0",
    "Singleton, born in hospital",
  );
  bundle.entry.push({
    fullUrl: `${BASE}/Patient/NB1`,
    resource: {
      resourceType: "Patient",
      id: "NB1",
      identifier: [
        {
          type: coding("http://terminology.hl7.org/CodeSystem/v2-0203", "MR"),
          system: `${BASE}/mrn`,
          value: "MRN-NB-1",
        },
      ],
      gender: "male",
      birthDate: bornOn,
    },
  });
  return withInfo(bundle, [{ category: category("birth-weight"), valueQuantity: quantity(3.2, "kg") }]);
}

/** a Claim extension of the test cases */
export function withExtension(bundle: Json, extension: Json): Json {
  claimOf(bundle).extension.push(extension);
  return bundle;
}

export const TRANSFER = { url: `${SD}extension-transfer`, valueBoolean: true };
export const OFFLINE_ELIGIBILITY = [
  { url: `${SD}extension-eligibility-offline-reference`, valueString: "EligResp-31212432" },
  { url: `${SD}extension-eligibility-offline-date`, valueDateTime: "2026-03-01" },
];
export const eligibilityResponse = (value: string) => ({
  url: `${SD}extension-eligibility-response`,
  valueReference: { identifier: { system: "http://payer.example.sa/eligibilityresponse", value } },
});
export const episode = (value: string) => ({
  url: `${SD}extension-episode`,
  valueIdentifier: { system: `${BASE}/episode`, value },
});

/** Claim.related: a resubmission or follow-up of an earlier request (relationship prior) */
export function relatedTo(bundle: Json, earlier: Json): Json {
  claimOf(bundle).related = [
    {
      claim: { type: "Claim", identifier: earlier },
      relationship: coding(`${CS}related-claim-relationship`, "prior"),
    },
  ];
  return bundle;
}

/** a vision prescription for the request (Claim.prescription) */
export function withVisionPrescription(bundle: Json): Json {
  claimOf(bundle).prescription = { reference: `${BASE}/VisionPrescription/VP1` };
  bundle.entry.push({
    fullUrl: `${BASE}/VisionPrescription/VP1`,
    resource: {
      resourceType: "VisionPrescription",
      id: "VP1",
      status: "active",
      created: "2026-03-01",
      patient: { reference: `${BASE}/Patient/P1` },
      dateWritten: "2026-03-01",
      prescriber: { reference: `${BASE}/Practitioner/D1` },
      lensSpecification: [
        {
          product: coding("http://terminology.hl7.org/CodeSystem/ex-visionprescriptionproduct", "lens"),
          eye: "right",
          sphere: -2,
        },
      ],
    },
  });
  return bundle;
}

/** the tooth the first item is for, as an FDI oral region */
export function withTooth(bundle: Json, tooth = "11"): Json {
  claimOf(bundle).item[0].bodySite = coding("http://nphies.sa/terminology/CodeSystem/fdi-oral-region", tooth);
  return bundle;
}

/** the codes the scenarios bill at CCHI-1 that the FHIR tenant's price lists do not hold, with their prices */
const SCENARIO_PRICES: [string, number][] = [
  ["06285097000056", 40],
  ["06285096000798", 25],
  ["SFDA-7766", 30],
  ["MD-1001", 120],
  ["42503-00-02", 400],
];

/** prices CCHI-1 for the scenarios' codes, from 2026 on */
export async function priceScenarioCodes(tenant: TenantClient): Promise<void> {
  await createPriceList(tenant, {
    provider: "CCHI-1",
    erpId: "PL-SCENARIOS",
    from: 2026,
    to: 2026,
    prices: SCENARIO_PRICES,
  });
}

/** pharmacy drugs by GTIN, days supply linked to each, and an unlisted drug billed with its SFDA code */
export function pharmacyWithShadowBilling(date: string): Json {
  const drug = (code: string, unitPrice: number, informationSequence: number) => ({
    system: `${CS}medication-codes`,
    code,
    display: `Drug ${code}`,
    quantity: 1,
    unitPrice,
    informationSequence: [informationSequence],
  });
  const bundle = claimMessage({
    kind: "pharmacy",
    date,
    items: [drug("06285097000056", 40, 1), drug("06285096000798", 25, 2), drug("99999999999999", 30, 3)],
  });
  const claim = claimOf(bundle);
  claim.supportingInfo = [30, 10, 5].map((days, index) => ({
    sequence: index + 1,
    category: category("days-supply"),
    valueQuantity: quantity(days, "d"),
  }));
  // shadow billing: the unlisted drug's NPHIES code beside the SFDA code the payer prices
  claim.item[2].productOrService.coding.push({
    system: "http://nphies.sa/terminology/CodeSystem/scientific-codes",
    code: "SFDA-7766",
    display: "Unlisted drug (SFDA registration 7766)",
  });
  return bundle;
}
