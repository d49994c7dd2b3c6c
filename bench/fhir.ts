/**
 * The NPHIES FHIR interface's cost over the JSON API (budget: a priorauth-request of 5 items adds at most
 * 1 ms over the JSON create). On a standard tenant set up as for the create bench, one client sends the
 * same five items to both, alternating JSON create and FHIR $process-message so the machine's drift hits
 * both alike: the p50 and mean of each, and their difference.
 */
import { benchDayOf, MEMBERS, requestBodyOf, setUpStandard } from "./prior-auth.js";
import { percentile } from "./ratios.js";
import { createTenant } from "./server.js";

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const CS = "http://nphies.sa/terminology/CodeSystem/";
const BASE = "http://bench.example.sa/fhir";

/** five items: two with contract prices, three without (rejected: no contract price) */
const ITEMS = [
  { own: "CONS-1", code: "99213", system: "services", price: 250, type: "CONSULTATION" },
  { own: "LAB-1", code: "80053", system: "laboratory", price: 100, type: "AMBULATORY" },
  { own: "LAB-2", code: "85025", system: "laboratory", price: 60, type: "AMBULATORY" },
  { own: "IMG-1", code: "71045", system: "imaging", price: 300, type: "AMBULATORY" },
  { own: "PROC-1", code: "30571-00-00", system: "procedures", price: 900, type: "AMBULATORY" },
];

const jsonBody = (sequence: number): string =>
  requestBodyOf(
    sequence,
    "FJ",
    ITEMS.map((item, index) => ({
      service_code: item.own,
      service_description: item.own,
      nphies_code: item.code,
      nphies_type: item.type,
      service_type: item.type,
      claimed_quantity: 1,
      claimed_amount: item.price,
      erp_item_id: String(index + 1),
    })),
  );

const coding = (system: string, code: string) => ({ coding: [{ system, code }] });

function fhirBody(sequence: number): string {
  const member = sequence % MEMBERS;
  const day = benchDayOf(sequence);
  const ref = (type: string, id: string) => ({ reference: `${BASE}/${type}/${id}` });
  const claim = {
    resourceType: "Claim",
    id: `c${sequence}`,
    meta: { profile: [`${SD}professional-priorauth|1.0.0`] },
    extension: [{ url: `${SD}extension-encounter`, valueReference: ref("Encounter", "E1") }],
    identifier: [{ system: `${BASE}/authorization`, value: `FF-${process.pid}-${sequence}` }],
    status: "active",
    type: coding("http://terminology.hl7.org/CodeSystem/claim-type", "professional"),
    subType: coding(`${CS}claim-subtype`, "op"),
    use: "preauthorization",
    patient: ref("Patient", "P1"),
    created: `${day}T08:00:00+03:00`,
    insurer: ref("Organization", "INS"),
    provider: ref("Organization", "PRV"),
    diagnosis: [
      {
        sequence: 1,
        diagnosisCodeableConcept: coding("http://hl7.org/fhir/sid/icd-10-am", "J06.9"),
        type: [coding(`${CS}diagnosis-type`, "principal")],
      },
    ],
    insurance: [{ sequence: 1, focal: true, coverage: ref("Coverage", "C1") }],
    item: ITEMS.map((item, index) => ({
      sequence: index + 1,
      diagnosisSequence: [1],
      productOrService: {
        coding: [
          { system: `${CS}${item.system}`, code: item.code },
          { system: `${BASE}/services`, code: item.own },
        ],
      },
      servicedDate: day,
      quantity: { value: 1 },
      unitPrice: { value: item.price, currency: "SAR" },
      net: { value: item.price, currency: "SAR" },
    })),
  };
  const entry = (type: string, id: string, resource: object) => ({
    fullUrl: `${BASE}/${type}/${id}`,
    resource: { resourceType: type, id, ...resource },
  });
  return JSON.stringify({
    resourceType: "Bundle",
    id: `b${sequence}`,
    type: "message",
    entry: [
      {
        fullUrl: `urn:uuid:m-${process.pid}-${sequence}`,
        resource: {
          resourceType: "MessageHeader",
          id: `m-${process.pid}-${sequence}`,
          eventCoding: { system: `${CS}ksa-message-events`, code: "priorauth-request" },
          destination: [
            {
              receiver: {
                identifier: { system: "http://nphies.sa/license/payer-license", value: "7000911508" },
              },
            },
          ],
          sender: { identifier: { system: "http://nphies.sa/license/provider-license", value: "CCHI-1" } },
          focus: [{ reference: `${BASE}/Claim/c${sequence}` }],
        },
      },
      { fullUrl: `${BASE}/Claim/c${sequence}`, resource: claim },
      entry("Patient", "P1", { gender: member % 2 ? "male" : "female", birthDate: "1985-06-15" }),
      entry("Coverage", "C1", {
        identifier: [{ value: `M${member}` }],
        beneficiary: ref("Patient", "P1"),
        payor: [ref("Organization", "INS")],
        class: [
          { type: coding("http://terminology.hl7.org/CodeSystem/coverage-class", "group"), value: "PH1" },
          { type: coding("http://terminology.hl7.org/CodeSystem/coverage-class", "plan"), value: "POL1" },
        ],
      }),
      entry("Organization", "PRV", {
        identifier: [{ system: "http://nphies.sa/license/provider-license", value: "CCHI-1" }],
      }),
      entry("Organization", "INS", {
        identifier: [{ system: "http://nphies.sa/license/payer-license", value: "7000911508" }],
      }),
      entry("Encounter", "E1", { status: "planned", class: { code: "AMB" } }),
    ],
  });
}

async function timed(url: string, headers: Record<string, string>, body: string, status: number) {
  const started = performance.now();
  const res = await fetch(url, { method: "POST", headers, body });
  await res.arrayBuffer();
  if (res.status !== status) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

const ascending = (a: number, b: number) => a - b;
const p50 = (values: number[]) => percentile(values.toSorted(ascending), 50);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export interface FhirFigures {
  scenario: string;
  requests: number;
  jsonP50Ms: number;
  fhirP50Ms: number;
  addedP50Ms: number;
  addedMeanMs: number;
  budget: string;
}

/** one client alternating the JSON create and the FHIR message on `base` (the app's tenant or the floor server's) */
export async function alternate(base: string, apiKey: string, requests: number) {
  const json = { "access-key": apiKey, "content-type": "application/json" };
  const fhir = { "access-key": apiKey, "content-type": "application/fhir+json" };
  const jsonTimes: number[] = [];
  const fhirTimes: number[] = [];
  // a warm-up of each, then alternating
  for (let sequence = 0; sequence < requests + 50; sequence++) {
    const j = await timed(`${base}/v4.0/health/approval-request/create`, json, jsonBody(sequence), 201);
    const f = await timed(`${base}/fhir/$process-message`, fhir, fhirBody(sequence), 200);
    if (sequence >= 50) {
      jsonTimes.push(j);
      fhirTimes.push(f);
    }
  }
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    jsonP50Ms: round(p50(jsonTimes)),
    fhirP50Ms: round(p50(fhirTimes)),
    addedP50Ms: round(p50(fhirTimes) - p50(jsonTimes)),
    addedMeanMs: round(mean(fhirTimes) - mean(jsonTimes)),
  };
}

export async function benchFhir(port: number, adminToken: string, requests: number): Promise<FhirFigures> {
  const name = "bench-fhir-std";
  const tenant = await createTenant(port, adminToken, name, "standard");
  await setUpStandard(tenant.base, tenant.headers);
  return {
    scenario: "priorauth-request bundle vs JSON create (5 items, standard, one client)",
    requests,
    ...(await alternate(`http://127.0.0.1:${port}/${name}`, tenant.apiKey, requests)),
    budget: "added <= 1 ms",
  };
}
