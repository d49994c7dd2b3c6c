import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { LightMyRequestResponse } from "fastify";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { createHolder, createMember, createNetwork, createPolicy } from "../policies/fixtures.js";
import { consultation, createRequest, expectStatus } from "../prior-auth/fixtures.js";
import { headerEntry, type Json } from "./bundles.js";
import { pathsOf, postMessage, setUpFhirTenant } from "./fixtures.js";
import { checkResponseMessage } from "./nphies-rules/rules.js";
import { loadTerminology } from "./nphies-rules/terminology.js";

/**
 * eligibility-request as NPHIES delivers it, answered as the pack's samples 14b/15b/15c show: the pack's
 * own requests (14a, 15a), the five payer steps of test-cases/eligibility-v4.0.txt, and hostile messages.
 */

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const CS = "http://nphies.sa/terminology/CodeSystem/";
const HL7 = "http://terminology.hl7.org/CodeSystem/";
const PAYER_LICENSE = "http://nphies.sa/license/payer-license";
const PROVIDER_LICENSE = "http://nphies.sa/license/provider-license";
const BASE = "http://hospital.example.sa";
const PAYER = "7000911508";

const PACK = fileURLToPath(new URL("../../../../shared/reference/nphies/", import.meta.url));
const SAMPLE_14A = `${PACK}samples/14a - Eligibilty Request Ben-Val.json`;
const SAMPLE_15A = `${PACK}samples/15a - Eligibilty Request Discovery.json`;
const noPack = existsSync(SAMPLE_14A) && existsSync(SAMPLE_15A) ? false : `the NPHIES pack is not at ${PACK}`;
const sample = (path: string): Json => JSON.parse(readFileSync(path, "utf8"));
/** the pack's code systems, for the NPHIES rules every answer is checked against (none without the pack) */
const terminology = loadTerminology();

const coding = (system: string, code: string) => ({ coding: [{ system, code }] });
const codeOf = (concept: Json | undefined) => concept?.coding?.[0]?.code;
const extensionOf = (element: Json, name: string) =>
  (element.extension ?? []).find((extension: Json) => extension.url === `${SD}extension-${name}`);
const siteOf = (element: Json) => codeOf(extensionOf(element, "siteEligibility")?.valueCodeableConcept);

// ---------------------------------------------------------------- messages

const IQAMA = "http://nphies.sa/identifier/iqama";

/** a Patient entry named by one identifier */
function patient(id: string, identifier: { system: string; value: string; type: string }, extra: Json = {}) {
  return {
    fullUrl: `${BASE}/Patient/${id}`,
    resource: {
      resourceType: "Patient",
      id,
      meta: { profile: [`${SD}patient|1.0.0`] },
      identifier: [
        {
          type: coding(`${HL7}v2-0203`, identifier.type),
          system: identifier.system,
          value: identifier.value,
        },
      ],
      active: true,
      name: [{ use: "official", text: `Patient ${id}` }],
      gender: "female",
      birthDate: "1990-05-01",
      ...extra,
    },
  };
}

const byIqama = (id: string, iqama: string, extra: Json = {}) =>
  patient(id, { system: IQAMA, value: iqama, type: "PRC" }, extra);

interface EligibilityOptions {
  purpose: string[];
  patient: Json;
  /** other Patients of the bundle (a newborn's mother) */
  others?: Json[];
  /** the Coverage sent (none: discovery) */
  coverage?: { memberId: string; classes?: [string, string][]; beneficiary?: string };
  extension?: Json[];
  provider?: string;
  servicedDate?: string;
  messageId?: string;
}

/** an eligibility-request message from `provider` (default CCHI-1) to the payer, on 10 March 2026 */
function eligibility(options: EligibilityOptions): Json {
  const provider = options.provider ?? "CCHI-1";
  const patientUrl = options.patient.fullUrl;
  const request = {
    resourceType: "CoverageEligibilityRequest",
    id: randomUUID(),
    meta: { profile: [`${SD}eligibility-request|1.0.0`] },
    ...(options.extension ? { extension: options.extension } : {}),
    identifier: [{ system: `${BASE}/identifier/coverageeligibilityrequest`, value: `req_${randomUUID()}` }],
    status: "active",
    priority: coding(`${HL7}processpriority`, "normal"),
    purpose: options.purpose,
    patient: { reference: patientUrl },
    servicedDate: options.servicedDate ?? "2026-03-10",
    created: "2026-03-10T08:00:00+03:00",
    provider: { reference: `${BASE}/Organization/PRV` },
    insurer: { reference: `${BASE}/Organization/INS` },
    facility: { reference: `${BASE}/Location/LOC` },
    ...(options.coverage ? { insurance: [{ coverage: { reference: `${BASE}/Coverage/COV` } }] } : {}),
  };
  const coverage = options.coverage;
  const beneficiary = coverage?.beneficiary ?? patientUrl;
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    meta: { profile: [`${SD}bundle|1.0.0`] },
    type: "message",
    timestamp: "2026-03-10T08:00:00+03:00",
    entry: [
      headerEntry(
        "eligibility-request",
        provider,
        `${BASE}/CoverageEligibilityRequest/${request.id}`,
        options.messageId,
      ),
      { fullUrl: `${BASE}/CoverageEligibilityRequest/${request.id}`, resource: request },
      options.patient,
      ...(options.others ?? []),
      ...(coverage
        ? [
            {
              fullUrl: `${BASE}/Coverage/COV`,
              resource: {
                resourceType: "Coverage",
                id: "COV",
                meta: { profile: [`${SD}coverage|1.0.0`] },
                identifier: [{ system: `${BASE}/memberid`, value: coverage.memberId }],
                status: "active",
                type: coding(`${CS}coverage-type`, "EHCPOL"),
                subscriber: { reference: beneficiary },
                beneficiary: { reference: beneficiary },
                relationship: coding(`${HL7}subscriber-relationship`, "self"),
                payor: [{ reference: `${BASE}/Organization/INS` }],
                ...(coverage.classes
                  ? {
                      class: coverage.classes.map(([type, value]) => ({
                        type: coding(`${HL7}coverage-class`, type),
                        value,
                      })),
                    }
                  : {}),
              },
            },
          ]
        : []),
      {
        fullUrl: `${BASE}/Organization/PRV`,
        resource: {
          resourceType: "Organization",
          id: "PRV",
          identifier: [{ system: PROVIDER_LICENSE, value: provider }],
          name: "Hospital",
        },
      },
      {
        fullUrl: `${BASE}/Organization/INS`,
        resource: {
          resourceType: "Organization",
          id: "INS",
          identifier: [{ system: PAYER_LICENSE, value: PAYER }],
          name: "Insurer",
        },
      },
      {
        fullUrl: `${BASE}/Location/LOC`,
        resource: { resourceType: "Location", id: "LOC", name: "Main building" },
      },
    ],
  };
}

// ---------------------------------------------------------------- answers

/**
 * The response message checked against its request: the event, response.identifier, the parties swapped,
 * every reference of every resource resolving inside it, and the pack's validation rules (nphies-rules)
 * when the pack is there; returns its CoverageEligibilityResponse.
 */
function answerOf(
  request: Json,
  res: LightMyRequestResponse,
  rules = true,
): { bundle: Json; response: Json } {
  assert.equal(res.statusCode, 200, res.body);
  const bundle = res.json();
  assert.equal(bundle.type, "message");
  const header = bundle.entry[0].resource;
  const sent = request.entry[0].resource;
  assert.deepEqual(header.eventCoding, { system: `${CS}ksa-message-events`, code: "eligibility-response" });
  assert.deepEqual(header.response, { identifier: sent.id, code: "ok" });
  assert.deepEqual(header.sender.identifier, sent.destination[0].receiver.identifier);
  assert.deepEqual(header.destination[0].receiver.identifier, sent.sender.identifier);
  const urls = new Set(bundle.entry.map((entry: Json) => entry.fullUrl));
  for (const reference of JSON.stringify(bundle.entry.slice(1)).matchAll(/"reference":"([^"]+)"/g))
    assert.ok(urls.has(reference[1]), `${reference[1]} resolves in the response`);
  const response = bundle.entry.find((entry: Json) => entry.fullUrl === header.focus[0].reference)?.resource;
  assert.equal(response?.resourceType, "CoverageEligibilityResponse");
  const asked = request.entry.find((entry: Json) => entry.fullUrl === sent.focus[0].reference).resource;
  assert.deepEqual(response.meta.profile, [`${SD}eligibility-response|1.0.0`]);
  assert.equal(response.status, "active");
  assert.deepEqual(response.purpose, asked.purpose);
  assert.equal(response.patient.reference, asked.patient.reference);
  assert.equal(response.servicedDate, asked.servicedDate);
  assert.deepEqual(response.servicedPeriod, asked.servicedPeriod);
  assert.deepEqual(response.request, { identifier: asked.identifier[0] });
  assert.equal(response.insurer.reference, asked.insurer.reference);
  assert.equal(
    response.identifier[0].system,
    `${PAYER_LICENSE}/${sent.destination[0].receiver.identifier.value}/coverageeligibilityresponse`,
  );
  if (rules && terminology !== undefined)
    assert.deepEqual(checkResponseMessage(bundle, request, terminology), []);
  return { bundle, response };
}

/** the resource of the response bundle a reference names */
const resolved = (bundle: Json, reference: Json) =>
  bundle.entry.find((entry: Json) => entry.fullUrl === reference.reference)?.resource;

/** an error answer: adjudication-error `code`, no insurance, no siteEligibility (BV-00503 is for complete) */
function assertError(response: Json, code: string, display: string) {
  assert.equal(response.outcome, "error");
  assert.deepEqual(response.error, [
    { code: { coding: [{ system: `${CS}adjudication-error`, code, display }] } },
  ]);
  assert.equal(response.insurance, undefined);
  assert.equal(response.extension, undefined);
}

/** the benefit items of an insurance as [category, name, network, allowed, used] */
const itemsOf = (insurance: Json) =>
  (insurance.item ?? []).map((item: Json) => [
    codeOf(item.category),
    item.name,
    codeOf(item.network),
    item.benefit[0].allowedMoney.value,
    item.benefit[0].usedMoney.value,
  ]);

// ---------------------------------------------------------------- tenant data

interface Cover {
  memberId: string;
  nationalId: string;
  holder: string;
  policy: string;
  network?: string;
  start?: string;
  end?: string;
  status?: "ACTIVE" | "INACTIVE" | "EXPIRED";
  /** the category's amount and its benefits [code, description, limit] */
  template?: { amount: number; benefits: [number, string, number][] };
  member?: Json;
}

/** a member (by its national id or iqama) on a policy of its own through the JSON API */
async function cover(tenant: TenantClient, spec: Cover) {
  await createMember(tenant, spec.memberId, { national_id: spec.nationalId, ...spec.member });
  const dates = { start_date: spec.start ?? "2026-01-01", end_date: spec.end ?? "2026-12-31" };
  await createPolicy(tenant, spec.holder, spec.policy, {
    ...dates,
    status: spec.status ?? "ACTIVE",
    add_patient_to_policy: {
      member_id: spec.memberId,
      ...(spec.network ? { network_code: spec.network } : {}),
      category_code: "A",
      ...dates,
    },
  });
  const key = { ph_erp_id: spec.holder, policy_no: spec.policy, category_code: "A" };
  if (spec.template === undefined) return;
  await expectStatus(
    tenant.call("POST", "/policy/template/category", { ...key, amount_eligible: spec.template.amount }),
    201,
  );
  for (const [code, description, limit] of spec.template.benefits)
    await expectStatus(
      tenant.call("POST", "/policy/template/benefit", {
        ...key,
        benefit_code: code,
        benefit_description: description,
        limit,
      }),
      201,
    );
}

// ---------------------------------------------------------------- the pack's samples

describe("NPHIES FHIR eligibility: the pack's samples 14a and 15a", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await setUpFhirTenant(ctx.tenant);
  });
  after(() => ctx.close());

  it("answers 14a (benefits + validation) with error 1658 when its member is unknown, as 15c", {
    skip: noPack,
  }, async () => {
    const request = sample(SAMPLE_14A);
    const { bundle, response } = answerOf(request, await postMessage(ctx, ctx.tenant, request));
    assertError(response, "1658", "No member found with the supplied patient credentials");
    assert.equal(response.disposition, "No member found with iqama 0000000001 or member id 0000000001");
    assert.deepEqual(response.servicedPeriod, { start: "2021-07-15", end: "2021-07-16" });
    assert.deepEqual(response.request, {
      identifier: { system: "http://sgh.com.sa/identifier/coverageeligibilityrequest", value: "req_161490" },
    });
    assert.equal(bundle.entry[0].resource.sender.identifier.value, "N-I-00001");
    assert.equal(bundle.entry[0].resource.destination[0].receiver.identifier.value, "N-F-00001");
    assert.equal(resolved(bundle, response.patient).identifier[0].value, "0000000001");
  });

  it("answers 15a (discovery without a Coverage) with error 1658 naming the iqama, as 15c", {
    skip: noPack,
  }, async () => {
    const request = sample(SAMPLE_15A);
    const { response } = answerOf(request, await postMessage(ctx, ctx.tenant, request));
    assertError(response, "1658", "No member found with the supplied patient credentials");
    assert.equal(response.disposition, "No member found with iqama 0000000002");
    assert.deepEqual(response.purpose, ["discovery"]);
  });

  describe("with the samples' members on the payer's books", () => {
    let tenant: TenantClient;
    before(async () => {
      tenant = await ctx.newTenant();
      await createHolder(tenant, "CB135");
      await expectStatus(
        tenant.call("POST", "/medical-provider/create", {
          name: "Saudi General Hospital",
          city: "Riyadh",
          cchi_no: "N-F-00001",
        }),
        201,
      );
      for (const network of ["Golden C", "Silver"]) await createNetwork(tenant, network);
      const golden = (await tenant.call("GET", "/network/find-all?name=Golden%20C")).json().data[0];
      await expectStatus(
        tenant.call("POST", `/network/${golden.id}/providers`, { cchi_no: "N-F-00001" }),
        201,
      );
      const year = { start: "2021-01-01", end: "2021-12-31", holder: "CB135" };
      const member = { gender: "MALE", date_of_birth: "1984-12-25T00:00:00.000Z" };
      // 14b's benefits: Medical Care 1,000 and Surgical 1,050
      const template = {
        amount: 5000,
        benefits: [
          [1, "Medical Care", 1000],
          [2, "Surgical", 1050],
        ] as [number, string, number][],
      };
      await cover(tenant, {
        ...year,
        memberId: "0000000001",
        nationalId: "0000000001",
        policy: "SNI-GOLD",
        network: "Golden C",
        template,
        member,
      });
      await cover(tenant, {
        ...year,
        memberId: "10000002",
        nationalId: "0000000002",
        policy: "SNI-SILVER",
        network: "Silver",
        member,
      });
    });

    it("answers 14a as 14b: complete, eligible, in force, the category's benefits", {
      skip: noPack,
    }, async () => {
      const request = sample(SAMPLE_14A);
      const { bundle, response } = answerOf(request, await postMessage(ctx, tenant, request));
      assert.equal(response.outcome, "complete");
      assert.equal(siteOf(response), "eligible");
      assert.equal(response.error, undefined);
      assert.equal(response.insurance.length, 1);
      const [insurance] = response.insurance;
      assert.equal(insurance.coverage.reference, "http://sgh.com.sa/Coverage/1333");
      assert.equal(resolved(bundle, insurance.coverage).identifier[0].value, "0000000001");
      assert.equal(insurance.inforce, true);
      assert.equal(siteOf(insurance), "eligible");
      assert.deepEqual(insurance.benefitPeriod, { start: "2021-01-01", end: "2021-12-31" });
      assert.deepEqual(itemsOf(insurance), [
        ["13", "Category A", "in", 5000, 0],
        ["1", "Medical Care", "in", 1000, 0],
        ["2", "Surgical", "in", 1050, 0],
      ]);
      const [item] = insurance.item;
      assert.deepEqual(
        [codeOf(item.unit), codeOf(item.term), item.excluded],
        ["individual", "annual", false],
      );
      assert.deepEqual(item.benefit[0].type, coding(`${CS}benefit-type`, "benefit"));
      assert.equal(item.benefit[0].allowedMoney.currency, "SAR");
      assert.match(
        response.disposition,
        /^Member 0000000001 on policy SNI-GOLD of CB135: in force, eligible$/,
      );
    });

    it("answers 15a as 15b: discovery finds the member by iqama, out of its network", {
      skip: noPack,
    }, async () => {
      const request = sample(SAMPLE_15A);
      const { bundle, response } = answerOf(request, await postMessage(ctx, tenant, request));
      assert.equal(response.outcome, "complete");
      assert.equal(siteOf(response), "out-network");
      const [insurance, ...more] = response.insurance;
      assert.equal(more.length, 0);
      assert.equal(insurance.inforce, true);
      assert.equal(siteOf(insurance), "out-network");
      assert.equal(insurance.item, undefined, "discovery alone asks for no benefits");
      // the payer's own Coverage for the policy it found
      const coverage = resolved(bundle, insurance.coverage);
      assert.deepEqual(coverage.identifier, [
        { system: `${PAYER_LICENSE}/N-I-00001/memberid`, value: "10000002" },
      ]);
      assert.equal(coverage.status, "active");
      assert.deepEqual(
        coverage.class.map((entry: Json) => [codeOf(entry.type), entry.value]),
        [
          ["group", "CB135"],
          ["plan", "SNI-SILVER"],
        ],
      );
      assert.equal(coverage.beneficiary.reference, "http://sgh.com.sa/Patient/123456788");
      assert.equal(coverage.payor[0].reference, response.insurer.reference);
      assert.match(response.disposition, /outside the member's network/);
    });
  });
});

// ---------------------------------------------------------------- the payer test cases

describe("NPHIES FHIR eligibility: test-cases/eligibility-v4.0.txt, the payer's steps", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  const ask = async (options: EligibilityOptions) => {
    const request = eligibility(options);
    return { request, ...answerOf(request, await postMessage(ctx, tenant, request)) };
  };
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
    await createHolder(tenant, "PH2");
    // TC2: one person (iqama 2555555559) holding two memberships, each on a policy in force
    await cover(tenant, {
      memberId: "TC2-A",
      nationalId: "2555555559",
      holder: "PH1",
      policy: "POL-TC2A",
      network: "NET1",
      template: { amount: 8000, benefits: [[3, "Consultations", 800]] },
    });
    await cover(tenant, { memberId: "TC2-B", nationalId: "2555555559", holder: "PH2", policy: "POL-TC2B" });
    // TC4: a member whose policy ended with 2025
    await cover(tenant, {
      memberId: "TC4",
      nationalId: "2555555550",
      holder: "PH1",
      policy: "POL-2025",
      start: "2025-01-01",
      end: "2025-12-31",
      template: { amount: 1000, benefits: [] },
    });
  });
  after(() => ctx.close());

  it("TC1 validation with a member id: eligible, in force", async () => {
    const { response } = await ask({
      purpose: ["validation"],
      patient: byIqama("P1", "NM1"),
      coverage: {
        memberId: "M1",
        classes: [
          ["group", "PH1"],
          ["plan", "POL1"],
        ],
      },
    });
    assert.equal(response.outcome, "complete");
    assert.equal(siteOf(response), "eligible");
    assert.deepEqual(
      response.insurance.map((insurance: Json) => [
        insurance.coverage.reference,
        insurance.inforce,
        siteOf(insurance),
      ]),
      [[`${BASE}/Coverage/COV`, true, "eligible"]],
    );
    assert.equal(response.insurance[0].item, undefined, "validation asks for no benefits");
  });

  it("TC2 discovery + benefits by iqama without a Coverage, transfer extension: multiple active policies", async () => {
    const { bundle, response } = await ask({
      purpose: ["discovery", "benefits"],
      patient: byIqama("P2", "2555555559"),
      extension: [{ url: `${SD}extension-transfer`, valueBoolean: true }],
    });
    assert.equal(response.outcome, "complete");
    assert.equal(siteOf(response), "eligible");
    const found = response.insurance.map((insurance: Json) => {
      const coverage = resolved(bundle, insurance.coverage);
      return [
        coverage.identifier[0].value,
        coverage.class.find((entry: Json) => codeOf(entry.type) === "plan").value,
        insurance.inforce,
        siteOf(insurance),
      ];
    });
    assert.deepEqual(found.sort(), [
      ["TC2-A", "POL-TC2A", true, "eligible"],
      ["TC2-B", "POL-TC2B", true, "eligible"],
    ]);
    const withBenefits = response.insurance.find(
      (insurance: Json) => resolved(bundle, insurance.coverage).identifier[0].value === "TC2-A",
    );
    assert.deepEqual(itemsOf(withBenefits), [
      ["13", "Category A", "in", 8000, 0],
      ["3", "Consultations", "in", 800, 0],
    ]);
    for (const insurance of response.insurance)
      assert.equal(resolved(bundle, resolved(bundle, insurance.coverage).beneficiary).id, "P2");
  });

  it("TC3 validation + benefits for a newborn (MRN) on the mother's membership (iqama)", async () => {
    const mother = byIqama("MOTHER", "NM1");
    const newborn = patient(
      "BABY",
      { system: `${BASE}/identifier/mrn`, value: "MRN-77001", type: "MR" },
      { gender: "male", birthDate: "2026-03-01" },
    );
    const { bundle, response } = await ask({
      purpose: ["validation", "benefits"],
      patient: newborn,
      others: [mother],
      // any member id: the mother is found by her iqama
      coverage: { memberId: "ANY-4711", beneficiary: mother.fullUrl },
      extension: [{ url: `${SD}extension-newborn`, valueBoolean: true }],
    });
    assert.equal(response.outcome, "complete");
    assert.equal(siteOf(response), "eligible");
    assert.equal(resolved(bundle, response.patient).id, "BABY");
    const [insurance] = response.insurance;
    assert.equal(insurance.inforce, true);
    const coverage = resolved(bundle, insurance.coverage);
    assert.equal(resolved(bundle, coverage.beneficiary).id, "MOTHER");
    assert.match(response.disposition, /^Member M1 on policy POL1 of PH1: in force, eligible$/);
    assert.deepEqual(
      itemsOf(insurance).map((item: unknown[]) => item.slice(0, 4)),
      [
        ["13", "Category A", "in", 10000],
        ["1", "Outpatient", "in", 5000],
        ["2", "Benefit 2", "in", 1000],
      ],
    );
  });

  it("TC4 validation + benefits by iqama 2555555550: not-active, not in force, with the reason", async () => {
    const { response } = await ask({
      purpose: ["validation", "benefits"],
      patient: byIqama("P4", "2555555550"),
      coverage: { memberId: "TC4" },
    });
    assert.equal(response.outcome, "complete");
    assert.equal(siteOf(response), "not-active");
    const [insurance] = response.insurance;
    assert.equal(insurance.inforce, false);
    assert.equal(siteOf(insurance), "not-active");
    assert.deepEqual(insurance.benefitPeriod, { start: "2025-01-01", end: "2025-12-31" });
    assert.equal(insurance.item, undefined, "no benefits under a coverage not in force");
    const reason = extensionOf(insurance, "notInForceReason").valueCodeableConcept;
    assert.equal(codeOf(reason), "not-active");
    assert.match(reason.text, /after the member's link ended on 2025-12-31/);
    assert.ok(extensionOf(response, "notInForceReason"), "no coverage in force: the response says why");
    assert.match(response.disposition, /^Member TC4 on policy POL-2025 of PH1: not in force: /);
  });

  it("TC4 by discovery: the member's latest policy, not in force", async () => {
    const { bundle, response } = await ask({ purpose: ["discovery"], patient: byIqama("P4", "2555555550") });
    assert.equal(siteOf(response), "not-active");
    const [insurance, ...more] = response.insurance;
    assert.equal(more.length, 0);
    assert.equal(insurance.inforce, false);
    assert.equal(resolved(bundle, insurance.coverage).class[1].value, "POL-2025");
  });

  it("TC5 any purpose by iqama 2333333333: error 1658, no member found", async () => {
    for (const purpose of [
      ["validation"],
      ["discovery"],
      ["benefits", "validation"],
      ["auth-requirements"],
    ]) {
      const { response } = await ask({
        purpose,
        patient: byIqama("P5", "2333333333"),
        ...(purpose.includes("discovery") ? {} : { coverage: { memberId: "UNKNOWN-5" } }),
      });
      assertError(response, "1658", "No member found with the supplied patient credentials");
      assert.match(response.disposition, /^No member found with iqama 2333333333/);
    }
  });
});

// ---------------------------------------------------------------- mapping, resend, hostile

describe("NPHIES FHIR eligibility: site eligibility, benefits used, resend and refusals", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  const ask = async (options: EligibilityOptions) => {
    const request = eligibility(options);
    return { request, ...answerOf(request, await postMessage(ctx, tenant, request)) };
  };
  const validation = (memberId: string, extra: Partial<EligibilityOptions> = {}): EligibilityOptions => ({
    purpose: ["validation", "benefits"],
    patient: byIqama("P1", `N${memberId}`),
    coverage: { memberId },
    ...extra,
  });
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
  });
  after(() => ctx.close());

  it("answers benefits with what is allowed and what the member's approved requests used", async () => {
    const { created } = await createRequest(tenant);
    const approved = (benefit: number) =>
      created.items_results
        .filter((_item: Json, index: number) => [1, 2][index] === benefit)
        .reduce((sum: number, item: Json) => sum + item.approved_amount, 0);
    assert.ok(approved(1) > 0 && approved(2) > 0, JSON.stringify(created.items_results));
    const { response } = await ask(validation("M1"));
    assert.deepEqual(itemsOf(response.insurance[0]), [
      ["13", "Category A", "in", 10000, approved(1) + approved(2)],
      ["1", "Outpatient", "in", 5000, approved(1)],
      ["2", "Benefit 2", "in", 1000, approved(2)],
    ]);
  });

  it("answers out-network at a provider outside the link's network, in force", async () => {
    const { response } = await ask(validation("M1", { provider: "CCHI-2" }));
    assert.equal(siteOf(response), "out-network");
    assert.equal(response.insurance[0].inforce, true);
    assert.deepEqual(
      itemsOf(response.insurance[0]).map((item: unknown[]) => item[2]),
      ["out", "out", "out"],
    );
  });

  it("answers limit-exhausted when the category's limit is used up", async () => {
    await cover(tenant, {
      memberId: "SPENT",
      nationalId: "NSPENT",
      holder: "PH1",
      policy: "POL-SMALL",
      network: "NET1",
      template: { amount: 200, benefits: [[1, "Outpatient", 200]] },
      member: { date_of_birth: "1990-05-01T00:00:00.000Z" },
    });
    await createRequest(tenant, {
      member_id: "SPENT",
      policy_no: "POL-SMALL",
      items: [consultation({ benefit_code: 1, sub_benefit_code: undefined })],
    });
    const { response } = await ask(validation("SPENT"));
    assert.equal(siteOf(response), "limit-exhausted");
    assert.equal(response.insurance[0].inforce, true);
    assert.deepEqual(itemsOf(response.insurance[0])[0], ["13", "Category A", "in", 200, 200]);
  });

  it("answers not-active for a day after the link ended, and for a link made inactive", async () => {
    const late = await ask(validation("M1", { servicedDate: "2027-02-01" }));
    assert.equal(siteOf(late.response), "not-active");
    assert.match(late.response.disposition, /after the member's link ended on 2026-12-31/);
    await cover(tenant, { memberId: "PAUSED", nationalId: "NPAUSED", holder: "PH1", policy: "POL-PAUSED" });
    await expectStatus(
      tenant.call("PATCH", "/policy/patient-policy?ph_erp_id=PH1&policy_no=POL-PAUSED&member_id=PAUSED", {
        status: "INACTIVE",
      }),
      200,
    );
    const paused = await ask(validation("PAUSED"));
    assert.equal(siteOf(paused.response), "not-active");
    assert.match(paused.response.disposition, /link to the policy is INACTIVE/);
  });

  it("answers a request with neither servicedDate nor servicedPeriod for the day it was created", async () => {
    const request = eligibility(validation("M1"));
    const focus = request.entry[1].resource;
    delete focus.servicedDate;
    focus.created = "2027-01-05T09:00:00+03:00";
    const { response } = answerOf(request, await postMessage(ctx, tenant, request));
    assert.equal(response.servicedDate, undefined);
    assert.equal(siteOf(response), "not-active");
  });

  it("answers 1657 when only a member id names the member and it is unknown", async () => {
    // NPHIES requires Patient.identifier (IC-00242): the pack's rules are not checked on this request
    const nameless: Json = byIqama("P9", "x");
    delete nameless.resource.identifier;
    const request = eligibility({
      purpose: ["validation"],
      patient: nameless,
      coverage: { memberId: "NOBODY" },
    });
    const { response } = answerOf(request, await postMessage(ctx, tenant, request), false);
    assertError(response, "1657", "Member number not found");
    assert.equal(response.disposition, "No member has member id NOBODY");
  });

  it("answers a resent message with the same bytes", async () => {
    const request = eligibility(validation("M1"));
    const first = await postMessage(ctx, tenant, request);
    const again = await postMessage(ctx, tenant, request);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(again.body, first.body);
  });

  it("answers every member eligible on a lightweight tenant, which keeps no coverage", async () => {
    const light = await ctx.newTenant("lightweight");
    const request = eligibility(validation("ANYONE"));
    const { response } = answerOf(request, await postMessage(ctx, light, request));
    assert.equal(siteOf(response), "eligible");
    assert.equal(response.insurance[0].inforce, true);
  });

  const recorded = async (messageId: string) =>
    (
      await ctx.db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM fhir_messages WHERE tenant_id = $1 AND message_id = $2",
        [tenant.id, messageId],
      )
    )[0]?.count;

  it("refuses a focus that is not a CoverageEligibilityRequest, naming its FHIRPath, recording nothing", async () => {
    const request = eligibility(validation("M1"));
    request.entry[0].resource.focus = [{ reference: `${BASE}/Coverage/COV` }];
    const res = await postMessage(ctx, tenant, request);
    assert.deepEqual(pathsOf(res), ["Bundle.entry[0].resource.focus[0].reference"]);
    assert.match(res.json().issue[0].diagnostics, /is a Coverage, not a CoverageEligibilityRequest/);
    assert.equal(await recorded(request.entry[0].resource.id), 0);
  });

  it("refuses a patient reference that resolves nowhere, naming its FHIRPath, recording nothing", async () => {
    const request = eligibility(validation("M1"));
    request.entry[1].resource.patient = { reference: `${BASE}/Patient/NOWHERE` };
    const res = await postMessage(ctx, tenant, request);
    assert.deepEqual(pathsOf(res), ["Bundle.entry[1].resource.patient.reference"]);
    assert.equal(await recorded(request.entry[0].resource.id), 0);
    // the id is free: the message sent right is answered
    const fixed = eligibility({ ...validation("M1"), messageId: request.entry[0].resource.id });
    answerOf(fixed, await postMessage(ctx, tenant, fixed));
  });

  it("refuses a request without a patient reference and a Coverage beneficiary resolving to an Organization", async () => {
    const request = eligibility(validation("M1"));
    request.entry[1].resource.patient = {};
    const coverage = request.entry.find((entry: Json) => entry.resource.resourceType === "Coverage").resource;
    coverage.beneficiary = { reference: `${BASE}/Organization/PRV` };
    const res = await postMessage(ctx, tenant, request);
    assert.deepEqual(pathsOf(res).sort(), [
      "Bundle.entry[1].resource.patient.reference",
      "Bundle.entry[3].resource.beneficiary.reference",
    ]);
  });
});
