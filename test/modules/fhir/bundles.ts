import { randomUUID } from "node:crypto";

/**
 * NPHIES request messages as a provider's system sends them, written from the NPHIES implementation
 * guide's structure (shared reference nphies-fhir.md): the parties by licence, the MessageHeader first,
 * the Claim with its Patient, Coverage, provider and insurer Organizations, Practitioner and Encounter.
 * The tenant data they name is set up by setUpStandard (member M1 on POL1 of PH1, provider CCHI-1).
 */

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const CS = "http://nphies.sa/terminology/CodeSystem/";
const HL7 = "http://terminology.hl7.org/CodeSystem/";
const BASE = "http://provider.example.sa/fhir";

export const PAYER = "7000911508";
/** JSON as the tests read messages: freely */
// biome-ignore lint/suspicious/noExplicitAny: tests read the JSON of messages freely
export type Json = Record<string, any>;
type Entry = { fullUrl: string; resource: Json };
export type ClaimKind = "institutional" | "professional" | "pharmacy" | "oral" | "vision";

const money = (value: number) => ({ value, currency: "SAR" });
const coding = (system: string, code: string, display?: string) => ({
  coding: [{ system, code, ...(display ? { display } : {}) }],
});

interface ItemSpec {
  system: string;
  code: string;
  display: string;
  own?: string;
  quantity: number;
  unitPrice: number;
  tax?: number;
  patientShare?: number;
  period?: { start: string; end: string };
  informationSequence?: number[];
}

const ITEMS: Record<ClaimKind, ItemSpec[]> = {
  professional: [
    {
      system: `${CS}services`,
      code: "99213",
      display: "Consultation",
      own: "CONS-1",
      quantity: 1,
      unitPrice: 250,
      tax: 37.5,
      patientShare: 25,
    },
    {
      system: `${CS}laboratory`,
      code: "80053",
      display: "Comprehensive metabolic panel",
      own: "LAB-1",
      quantity: 1,
      unitPrice: 100,
    },
  ],
  institutional: [
    {
      system: `${CS}procedures`,
      code: "30571-00-00",
      display: "Appendicectomy",
      quantity: 1,
      unitPrice: 4500,
      period: { start: "2026-03-10T08:00:00+03:00", end: "2026-03-12T10:00:00+03:00" },
    },
    { system: `${CS}services`, code: "83600-00-00", display: "Room and board", quantity: 2, unitPrice: 600 },
  ],
  pharmacy: [
    {
      system: `${CS}medication-codes`,
      code: "06285074000529",
      display: "Amoxicillin 500 mg capsules",
      quantity: 2,
      unitPrice: 18.5,
      tax: 0,
      informationSequence: [1],
    },
  ],
  oral: [
    {
      system: `${CS}oral-health-op`,
      code: "97011-00-00",
      display: "Comprehensive oral examination",
      quantity: 1,
      unitPrice: 150,
    },
  ],
  vision: [
    {
      system: `${CS}services`,
      code: "VIS-0101",
      display: "Single vision lenses",
      quantity: 2,
      unitPrice: 220,
    },
  ],
};

/** the principal diagnosis (ICD-10-AM) each kind's services are for */
const DIAGNOSIS: Record<ClaimKind, [string, string]> = {
  professional: ["J06.9", "Acute upper respiratory infection"],
  institutional: ["K35.8", "Acute appendicitis, other and unspecified"],
  pharmacy: ["J02.9", "Acute pharyngitis, unspecified"],
  oral: ["K02.1", "Caries of dentine"],
  vision: ["H52.1", "Myopia"],
};

const SUB_TYPE: Record<ClaimKind, string> = {
  institutional: "ip",
  professional: "op",
  pharmacy: "op",
  oral: "op",
  vision: "op",
};

/** every service code the kinds' items use without a provider code of their own, with its unit price */
export const SERVICE_PRICES = Object.values(ITEMS)
  .flat()
  .filter((spec) => spec.own === undefined)
  .map((spec) => ({ code: spec.code, price: spec.unitPrice, display: spec.display }));

export interface BundleOptions {
  kind?: ClaimKind;
  event?: "priorauth-request" | "claim-request";
  identifier?: string;
  messageId?: string;
  memberId?: string;
  provider?: string;
  items?: ItemSpec[];
  preAuthRef?: string;
  /** the service day (YYYY-MM-DD in 2026, default 2026-03-10); the request is created that morning */
  date?: string;
}

let sequence = 0;

const dayAfter = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** a priorauth-request (or claim-request) message for M1 at CCHI-1 under POL1 on 10 March 2026 */
export function claimMessage(options: BundleOptions = {}) {
  const kind = options.kind ?? "professional";
  const event = options.event ?? "priorauth-request";
  const claimWord = event === "claim-request" ? "claim" : "priorauth";
  const identifier = options.identifier ?? `req_${process.pid}_${++sequence}`;
  const provider = options.provider ?? "CCHI-1";
  const date = options.date ?? "2026-03-10";
  const created = `${date}T08:00:00+03:00`;
  const specs = (options.items ?? ITEMS[kind]).map((spec) =>
    spec.period ? { ...spec, period: { start: created, end: `${dayAfter(date, 2)}T10:00:00+03:00` } } : spec,
  );
  const encounter = kind === "institutional" || kind === "professional";
  const item = specs.map((spec, index) => {
    // as NPHIES computes it: quantity x unit price x factor + tax (the patient share is not subtracted)
    const net = spec.quantity * spec.unitPrice + (spec.tax ?? 0);
    return {
      extension: [
        { url: `${SD}extension-tax`, valueMoney: money(spec.tax ?? 0) },
        { url: `${SD}extension-patient-share`, valueMoney: money(spec.patientShare ?? 0) },
        { url: `${SD}extension-package`, valueBoolean: false },
      ],
      sequence: index + 1,
      careTeamSequence: [1],
      diagnosisSequence: [1],
      ...(spec.informationSequence ? { informationSequence: spec.informationSequence } : {}),
      productOrService: {
        coding: [
          { system: spec.system, code: spec.code, display: spec.display },
          ...(spec.own
            ? [{ system: `${BASE}/CodeSystem/services`, code: spec.own, display: spec.display }]
            : []),
        ],
      },
      ...(spec.period ? { servicedPeriod: spec.period } : { servicedDate: date }),
      quantity: { value: spec.quantity },
      unitPrice: money(spec.unitPrice),
      net: money(Math.round(net * 100) / 100),
    };
  });
  const claim = {
    resourceType: "Claim",
    id: randomUUID(),
    meta: { profile: [`${SD}${kind}-${claimWord}|1.0.0`] },
    extension: [
      ...(encounter
        ? [{ url: `${SD}extension-encounter`, valueReference: { reference: `${BASE}/Encounter/E1` } }]
        : []),
      { url: `${SD}extension-newborn`, valueBoolean: false },
    ],
    identifier: [{ system: `${BASE}/authorization`, value: identifier }],
    status: "active",
    type: coding(`${HL7}claim-type`, kind),
    subType: coding(`${CS}claim-subtype`, SUB_TYPE[kind]),
    use: event === "claim-request" ? "claim" : "preauthorization",
    patient: { reference: `${BASE}/Patient/P1` },
    created,
    insurer: { reference: `${BASE}/Organization/INS` },
    provider: { reference: `${BASE}/Organization/PRV` },
    priority: coding(`${HL7}processpriority`, "normal"),
    payee: { type: coding(`${HL7}payeetype`, "provider") },
    careTeam: [
      {
        sequence: 1,
        provider: { reference: `${BASE}/Practitioner/D1` },
        role: coding(`${HL7}claimcareteamrole`, "primary"),
        qualification: coding(`${CS}practice-codes`, "08.26", "Internal Medicine"),
      },
    ],
    supportingInfo:
      kind === "pharmacy"
        ? [
            {
              sequence: 1,
              category: coding(`${CS}claim-information-category`, "days-supply"),
              valueQuantity: { value: 5, unit: "d" },
            },
          ]
        : [
            {
              sequence: 1,
              category: coding(`${CS}claim-information-category`, "chief-complaint"),
              code: { text: "Sore throat and fever for three days" },
            },
          ],
    diagnosis: [
      {
        sequence: 1,
        diagnosisCodeableConcept: coding("http://hl7.org/fhir/sid/icd-10-am", ...DIAGNOSIS[kind]),
        type: [coding(`${CS}diagnosis-type`, "principal")],
        ...(kind === "institutional" ? { onAdmission: coding(`${CS}diagnosis-on-admission`, "y") } : {}),
      },
    ],
    insurance: [
      {
        sequence: 1,
        focal: true,
        coverage: { reference: `${BASE}/Coverage/C1` },
        ...(options.preAuthRef ? { preAuthRef: [options.preAuthRef] } : {}),
      },
    ],
    item,
    total: money(item.reduce((sum, entry) => sum + entry.net.value, 0)),
  };
  return message(
    event,
    options.messageId,
    provider,
    claim,
    [
      ...(encounter
        ? [
            {
              fullUrl: `${BASE}/Encounter/E1`,
              resource: {
                resourceType: "Encounter",
                id: "E1",
                meta: { profile: [`${SD}encounter-auth-${kind === "institutional" ? "IMP" : "AMB"}|1.0.0`] },
                identifier: [{ system: `${BASE}/encounter`, value: "ENC-1" }],
                status: "planned",
                class: {
                  system: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
                  code: kind === "institutional" ? "IMP" : "AMB",
                },
                subject: { reference: `${BASE}/Patient/P1` },
                period: { start: created },
                serviceProvider: { reference: `${BASE}/Organization/PRV` },
              },
            },
          ]
        : []),
    ],
    options.memberId,
  );
}

function parties(provider: string, memberId = "M1") {
  return [
    {
      fullUrl: `${BASE}/Patient/P1`,
      resource: {
        resourceType: "Patient",
        id: "P1",
        meta: { profile: [`${SD}patient|1.0.0`] },
        identifier: [
          {
            type: coding("http://terminology.hl7.org/CodeSystem/v2-0203", "NI"),
            system: "http://nphies.sa/identifier/nationalid",
            value: "1012345678",
          },
        ],
        active: true,
        name: [{ use: "official", text: "Noura Al-Qahtani", family: "Al-Qahtani", given: ["Noura"] }],
        gender: "female",
        birthDate: "1990-05-01",
        maritalStatus: coding("http://terminology.hl7.org/CodeSystem/v3-MaritalStatus", "M"),
      },
    },
    {
      fullUrl: `${BASE}/Coverage/C1`,
      resource: {
        resourceType: "Coverage",
        id: "C1",
        meta: { profile: [`${SD}coverage|1.0.0`] },
        identifier: [{ system: "http://payer.example.sa/memberid", value: memberId }],
        status: "active",
        type: coding(`${CS}coverage-type`, "EHCPOL", "extended healthcare"),
        subscriber: { reference: `${BASE}/Patient/P1` },
        beneficiary: { reference: `${BASE}/Patient/P1` },
        relationship: coding("http://terminology.hl7.org/CodeSystem/subscriber-relationship", "self"),
        payor: [{ reference: `${BASE}/Organization/INS` }],
        class: [
          {
            type: coding("http://terminology.hl7.org/CodeSystem/coverage-class", "group"),
            value: "PH1",
            name: "Policy holder",
          },
          {
            type: coding("http://terminology.hl7.org/CodeSystem/coverage-class", "plan"),
            value: "POL1",
            name: "Gold plan",
          },
        ],
      },
    },
    {
      fullUrl: `${BASE}/Organization/PRV`,
      resource: {
        resourceType: "Organization",
        id: "PRV",
        meta: { profile: [`${SD}provider-organization|1.0.0`] },
        identifier: [{ system: "http://nphies.sa/license/provider-license", value: provider }],
        active: true,
        name: "Riyadh Care Clinic",
      },
    },
    {
      fullUrl: `${BASE}/Organization/INS`,
      resource: {
        resourceType: "Organization",
        id: "INS",
        meta: { profile: [`${SD}insurer-organization|1.0.0`] },
        identifier: [{ system: "http://nphies.sa/license/payer-license", value: PAYER }],
        active: true,
        name: "Example Insurance",
      },
    },
    {
      fullUrl: `${BASE}/Practitioner/D1`,
      resource: {
        resourceType: "Practitioner",
        id: "D1",
        meta: { profile: [`${SD}practitioner|1.0.0`] },
        identifier: [{ system: "http://nphies.sa/license/practitioner-license", value: "PR-1001" }],
        name: [{ use: "official", text: "Dr. Ahmed Al-Harbi" }],
      },
    },
  ];
}

/** a request's MessageHeader entry, from the provider's licence to this payer's (PAYER) */
export function headerEntry(event: string, provider: string, focusUrl: string, messageId?: string): Entry {
  return {
    fullUrl: `urn:uuid:${randomUUID()}`,
    resource: {
      resourceType: "MessageHeader",
      id: messageId ?? randomUUID(),
      meta: { profile: [`${SD}message-header|1.0.0`] },
      eventCoding: { system: `${CS}ksa-message-events`, code: event },
      destination: [
        {
          endpoint: `http://nphies.sa/license/payer-license/${PAYER}`,
          receiver: {
            type: "Organization",
            identifier: { system: "http://nphies.sa/license/payer-license", value: PAYER },
          },
        },
      ],
      sender: {
        type: "Organization",
        identifier: { system: "http://nphies.sa/license/provider-license", value: provider },
      },
      source: { endpoint: "http://provider.example.sa" },
      focus: [{ reference: focusUrl }],
    },
  };
}

function message(
  event: string,
  messageId: string | undefined,
  provider: string,
  focus: { resourceType: string; id: string },
  extra: Entry[],
  memberId?: string,
): { id: string; entry: Entry[]; [element: string]: unknown } {
  const focusUrl = `${BASE}/${focus.resourceType}/${focus.id}`;
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    meta: { profile: [`${SD}bundle|1.0.0`] },
    type: "message",
    timestamp: "2026-03-10T08:00:00+03:00",
    entry: [
      headerEntry(event, provider, focusUrl, messageId),
      { fullUrl: focusUrl, resource: focus },
      ...parties(provider, memberId),
      ...extra,
    ],
  };
}

/** an eligibility-request for M1 (or `memberId`) at CCHI-1 on `date` */
export function eligibilityMessage(options: { memberId?: string; date?: string; provider?: string } = {}) {
  const provider = options.provider ?? "CCHI-1";
  const request = {
    resourceType: "CoverageEligibilityRequest",
    id: randomUUID(),
    meta: { profile: [`${SD}eligibility-request|1.0.0`] },
    identifier: [{ system: `${BASE}/eligibility`, value: `elig_${++sequence}` }],
    status: "active",
    priority: coding("http://terminology.hl7.org/CodeSystem/processpriority", "normal"),
    purpose: ["benefits", "validation"],
    patient: { reference: `${BASE}/Patient/P1` },
    servicedDate: options.date ?? "2026-03-10",
    created: "2026-03-10T08:00:00+03:00",
    provider: { reference: `${BASE}/Organization/PRV` },
    insurer: { reference: `${BASE}/Organization/INS` },
    insurance: [{ coverage: { reference: `${BASE}/Coverage/C1` } }],
  };
  return message("eligibility-request", undefined, provider, request, [], options.memberId);
}

/** the entry of a bundle holding `resourceType` (its first) */
export function resourceOf(bundle: Json, resourceType: string): Json {
  const found = (bundle.entry as Entry[]).find((entry) => entry.resource.resourceType === resourceType);
  if (found === undefined) throw new Error(`no ${resourceType} in the bundle`);
  return found.resource;
}

/** the MessageHeader of a message (its first entry) */
export const headerOf = (bundle: Json): Json => resourceOf(bundle, "MessageHeader");
