import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { startReceiver } from "../../platform/events/webhook-receiver.js";
import { createRequest, expectStatus, labTest } from "../prior-auth/fixtures.js";
import {
  type ClaimKind,
  claimMessage,
  eligibilityMessage,
  headerOf,
  type Json,
  resourceOf,
} from "./bundles.js";
import { issuesOf, postMessage, setUpFhirTenant } from "./fixtures.js";

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const CS = "http://nphies.sa/terminology/CodeSystem/";
const KINDS: ClaimKind[] = ["institutional", "professional", "pharmacy", "oral", "vision"];
const ENGINE_TYPE = {
  institutional: "INSTITUTIONAL",
  professional: "PROFESSIONAL",
  pharmacy: "PHARMACY",
  oral: "DENTAL",
  vision: "OPTICAL",
};

const outcomeOf = (element: Json) =>
  element.extension.find((extension: Json) => extension.url === `${SD}extension-adjudication-outcome`)
    ?.valueCodeableConcept.coding[0].code;
/** an item's adjudication of a category (hl7 adjudication or ksa-adjudication) */
const adjudicationOf = (item: Json, category: string) =>
  item.adjudication.find((entry: Json) => entry.category.coding[0].code === category);
const amountOf = (item: Json, category: string) => adjudicationOf(item, category)?.amount.value;
const totalOf = (response: Json, category: string) =>
  response.total.find((entry: Json) => entry.category.coding[0].code === category).amount.value;

/** the reasons a ClaimResponse gives, for the message of a failed assertion */
const reasonsIn = (response: Json) =>
  JSON.stringify(
    response.item.flatMap((item: Json) =>
      item.adjudication.flatMap((entry: Json) => (entry.reason ? [entry.reason.text] : [])),
    ),
  );

/** checks the response message's envelope against its request, and returns its focus */
function checkEnvelope(request: Json, response: Json, event: string, focusType: string): Json {
  assert.equal(response.resourceType, "Bundle");
  assert.equal(response.type, "message");
  assert.deepEqual(response.meta.profile, [`${SD}bundle|1.0.0`]);
  const header = response.entry[0].resource;
  const sent = request.entry[0].resource;
  assert.equal(header.resourceType, "MessageHeader");
  assert.deepEqual(header.eventCoding, { system: `${CS}ksa-message-events`, code: event });
  assert.deepEqual(header.response, { identifier: sent.id, code: "ok" });
  // sender and receiver swapped
  assert.deepEqual(header.sender.identifier, sent.destination[0].receiver.identifier);
  assert.deepEqual(header.destination[0].receiver.identifier, sent.sender.identifier);
  const focus = response.entry.find((entry: Json) => entry.fullUrl === header.focus[0].reference);
  assert.equal(focus?.resource.resourceType, focusType);
  // every reference of the focus resolves inside the response
  const urls = new Set(response.entry.map((entry: Json) => entry.fullUrl));
  for (const reference of JSON.stringify(focus.resource).matchAll(/"reference":"([^"]+)"/g))
    assert.ok(urls.has(reference[1]), `${reference[1]} resolves in the response`);
  return focus.resource;
}

describe("NPHIES FHIR: prior authorizations and claims", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
  });
  after(() => ctx.close());

  it("answers a professional priorauth-request field by field, as the engine decided it", async () => {
    const request = claimMessage({ kind: "professional" });
    const res = await postMessage(ctx, tenant, request);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers["content-type"]), /^application\/fhir\+json/);
    const response = res.json();
    const claimResponse = checkEnvelope(request, response, "priorauth-response", "ClaimResponse");
    const claim = resourceOf(request, "Claim");
    assert.deepEqual(claimResponse.meta.profile, [`${SD}prior-auth-response|1.0.0`]);
    assert.equal(claimResponse.status, "active");
    assert.equal(claimResponse.use, "preauthorization");
    assert.deepEqual(claimResponse.type, claim.type);
    assert.deepEqual(claimResponse.subType, claim.subType);
    assert.deepEqual(claimResponse.request, { type: "Claim", identifier: claim.identifier[0] });
    assert.equal(claimResponse.outcome, "complete");
    assert.equal(outcomeOf(claimResponse), "partial");
    assert.match(claimResponse.disposition, /^Partially approved\. 2 items/);
    assert.equal(claimResponse.preAuthRef, claim.identifier[0].value);
    assert.deepEqual(claimResponse.preAuthPeriod, { start: "2026-03-10", end: "2026-04-09" });
    assert.equal(claimResponse.patient.reference, "http://provider.example.sa/fhir/Patient/P1");
    assert.equal(claimResponse.requestor.reference, "http://provider.example.sa/fhir/Organization/PRV");
    assert.equal(claimResponse.insurer.reference, "http://provider.example.sa/fhir/Organization/INS");
    // the consultation: 250 claimed (net 287.50 with its 15 % tax), contract price 200; the patient's
    // share of 25 shrinks with it to 20; the payer pays 180 and its tax 27, the patient 20 and its tax 3
    const [consultation, lab] = claimResponse.item;
    assert.equal(consultation.itemSequence, 1);
    assert.equal(outcomeOf(consultation), "partial");
    assert.equal(amountOf(consultation, "submitted"), 287.5);
    assert.equal(amountOf(consultation, "eligible"), 200);
    assert.equal(amountOf(consultation, "copay"), 20);
    assert.equal(amountOf(consultation, "tax"), 27);
    assert.equal(amountOf(consultation, "benefit"), 207);
    assert.equal(amountOf(consultation, "patientShare"), 23);
    assert.equal(adjudicationOf(consultation, "approved-quantity").value, 1);
    const rejected = adjudicationOf(consultation, "rejected");
    // NDC079 in the JSON API; the v2.6 code list's BE-1-3 in NPHIES's own terms
    assert.deepEqual(rejected.reason.coding, [
      {
        system: `${CS}adjudication-reason`,
        code: "BE-1-3",
        display: "Submission not compliant with contractual agreement between provider & payer",
      },
    ]);
    assert.match(rejected.reason.text, /contract price 200\.00/);
    assert.equal(rejected.amount.value, 50);
    assert.equal(lab.itemSequence, 2);
    assert.equal(outcomeOf(lab), "approved");
    assert.deepEqual(
      ["submitted", "eligible", "tax", "copay", "benefit"].map((category) => amountOf(lab, category)),
      [100, 100, 0, 0, 100],
    );
    assert.equal(adjudicationOf(lab, "rejected"), undefined);
    assert.deepEqual(
      ["submitted", "eligible", "benefit", "copay", "tax"].map((category) =>
        totalOf(claimResponse, category),
      ),
      [387.5, 300, 307, 20, 27],
    );
    for (const amount of JSON.stringify(claimResponse).matchAll(/"currency":"([A-Z]+)"/g))
      assert.equal(amount[1], "SAR");

    // one object: the JSON API shows the same request, its FHIR ids and the same decisions
    const pa = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${claim.identifier[0].value}`),
      200,
    );
    assert.equal(pa.transaction_type, "PREAUTH");
    assert.equal(pa.claim_type, "PROFESSIONAL");
    assert.equal(pa.claim_sub_type, "OUT_PATIENT");
    assert.equal(pa.member_id, "M1");
    assert.equal(pa.member_gender, "FEMALE");
    assert.equal(pa.marital_status, "MARRIED");
    assert.equal(pa.member_dob, "1990-05-01T00:00:00.000Z");
    assert.equal(pa.policy_no, "POL1");
    assert.equal(pa.ph_erp_id, "PH1");
    assert.equal(pa.medical_provider_cchi_no, "CCHI-1");
    assert.equal(pa.treatment_date, "2026-03-10T00:00:00.000Z");
    assert.equal(pa.request_date, "2026-03-10T05:00:00.000Z");
    assert.deepEqual(pa.diagnoses, [
      { type: "primary", code: "J06.9", name: "Acute upper respiratory infection" },
    ]);
    assert.equal(pa.doctor_id, "PR-1001");
    assert.equal(pa.doctor_name, "Dr. Ahmed Al-Harbi");
    assert.equal(pa.doctor_speciality, "08.26");
    assert.equal(pa.encounter.encounter_class, "AMB");
    assert.equal(pa.encounter.encounter_id, "ENC-1");
    assert.deepEqual(
      pa.items.map((item: Json) => [
        item.service_code,
        item.nphies_code,
        item.erp_item_id,
        item.decision,
        item.approved_amount,
      ]),
      [
        ["CONS-1", "99213", "1", "PARTIALLY_APPROVED", 200],
        ["LAB-1", "80053", "2", "APPROVED", 100],
      ],
    );
    assert.equal(pa.supporting_info[0].code, "CHIEF_COMPLAINT");
    assert.equal(pa.nphies_bundle_id, request.id);
  });

  KINDS.forEach((kind, index) => {
    // each kind on its own day, so that no kind's services are duplicates of another's
    const date = `2026-0${index + 4}-15`;
    let preAuthRef = "";

    it(`adjudicates a ${kind} priorauth-request and answers it with the engine's decisions`, async () => {
      const request = claimMessage({ kind, date });
      const claimResponse = await checkAnswered(request, "priorauth-request", kind);
      // the professional consultation is claimed above its contract price, the rest at theirs
      assert.equal(
        outcomeOf(claimResponse),
        kind === "professional" ? "partial" : "approved",
        reasonsIn(claimResponse),
      );
      preAuthRef = claimResponse.preAuthRef;
      assert.equal(preAuthRef, resourceOf(request, "Claim").identifier[0].value);
      assert.deepEqual(claimResponse.preAuthPeriod.start, date);
    });

    it(`adjudicates a ${kind} claim-request billed under its prior authorization`, async () => {
      const request = claimMessage({ kind, date, event: "claim-request", preAuthRef });
      const claimResponse = await checkAnswered(request, "claim-request", kind);
      // not a duplicate of its own prior authorization, nor over the limit that one used
      assert.equal(
        outcomeOf(claimResponse),
        kind === "professional" ? "partial" : "approved",
        reasonsIn(claimResponse),
      );
      assert.equal("preAuthRef" in claimResponse, false);
      const pa = await getOne(request);
      assert.equal(pa.authorization_number, preAuthRef);
    });
  });

  const getOne = (request: Json) =>
    expectStatus(
      tenant.call("GET", `/approval-request/get-one/${resourceOf(request, "Claim").identifier[0].value}`),
      200,
    );

  /** posts a claim message of `kind` and checks its answer against the request and the stored decisions */
  async function checkAnswered(request: Json, event: "priorauth-request" | "claim-request", kind: ClaimKind) {
    const res = await postMessage(ctx, tenant, request);
    assert.equal(res.statusCode, 200, res.body);
    const claimWord = event === "claim-request" ? "claim" : "priorauth";
    const claimResponse = checkEnvelope(request, res.json(), `${claimWord}-response`, "ClaimResponse");
    const claim = resourceOf(request, "Claim");
    assert.deepEqual(claimResponse.meta.profile, [
      `${SD}${event === "claim-request" ? "claim-response" : "prior-auth-response"}|1.0.0`,
    ]);
    assert.equal(claimResponse.use, event === "claim-request" ? "claim" : "preauthorization");
    assert.equal(claimResponse.type.coding[0].code, kind);
    const pa = await getOne(request);
    assert.equal(pa.claim_type, ENGINE_TYPE[kind]);
    assert.equal(pa.transaction_type, event === "claim-request" ? "CLAIM" : "PREAUTH");
    assert.equal(claimResponse.item.length, claim.item.length);
    claimResponse.item.forEach((item: Json, index: number) => {
      const stored = pa.items[index];
      assert.equal(item.itemSequence, claim.item[index].sequence);
      assert.equal(amountOf(item, "submitted"), claim.item[index].net.value);
      assert.equal(amountOf(item, "eligible"), stored.approved_amount);
      assert.equal(adjudicationOf(item, "approved-quantity").value, stored.approved_quantity);
      assert.equal(stored.claimed_quantity, claim.item[index].quantity.value);
      assert.equal(stored.claimed_amount, claim.item[index].unitPrice.value);
    });
    if (kind === "pharmacy") assert.equal(pa.items[0].duration, "5 days");
    if (kind === "institutional") {
      assert.equal(pa.claim_sub_type, "IN_PATIENT");
      assert.equal(
        pa.items[0].admission_date,
        claim.item[0].servicedPeriod.start.replace("T08:00:00+03:00", "T05:00:00.000Z"),
      );
      assert.equal(pa.encounter.encounter_class, "IMP");
    }
    if (kind === "vision") assert.equal(pa.items[0].service_type, "OPTICAL");
    if (kind === "oral") assert.equal(pa.items[0].service_type, "DENTAL");
    if (kind === "pharmacy") assert.equal(pa.items[0].service_type, "PHARMACEUTICAL");
    return claimResponse;
  }

  it("answers a resent message the same again, and stores one request", async () => {
    const request = claimMessage();
    const first = await postMessage(ctx, tenant, request);
    const again = await postMessage(ctx, tenant, request);
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());
    const claim = resourceOf(request, "Claim");
    const pa = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${claim.identifier[0].value}`),
      200,
    );
    assert.equal(pa.history.length, 1);
  });

  it("refuses a MessageHeader id already used with other content", async () => {
    const request = claimMessage();
    await postMessage(ctx, tenant, request);
    const other = claimMessage({ messageId: headerOf(request).id });
    const issues = issuesOf(await postMessage(ctx, tenant, other), 409);
    assert.deepEqual(issues[0]?.expression, ["Bundle.entry[0].resource.id"]);
    assert.equal(issues[0]?.code, "duplicate");
    const claim = resourceOf(other, "Claim");
    const res = await tenant.call("GET", `/approval-request/get-one/${claim.identifier[0].value}`);
    assert.equal(res.statusCode, 404, "nothing was stored");
  });

  it("answers the same Claim in a new message with the request as it stands, and refuses its identifier with other content", async () => {
    const request = claimMessage();
    const first = (await postMessage(ctx, tenant, request)).json();
    const resent = structuredClone(request);
    headerOf(resent).id = randomUUID();
    const res = await postMessage(ctx, tenant, resent);
    assert.equal(res.statusCode, 200, res.body);
    const header = res.json().entry[0].resource;
    assert.equal(header.response.identifier, headerOf(resent).id);
    assert.deepEqual(res.json().entry[1].resource.item, first.entry[1].resource.item);

    const identifier = resourceOf(request, "Claim").identifier[0].value;
    const changed = claimMessage({ identifier, kind: "oral" });
    const issues = issuesOf(await postMessage(ctx, tenant, changed), 409);
    assert.deepEqual(issues[0]?.expression, ["Bundle.entry[1].resource.identifier[0].value"]);
  });

  it("answers an unknown member or provider inside the response: outcome error with its adjudication-error code", async () => {
    const errorOf = async (request: Json) => {
      const res = await postMessage(ctx, tenant, request);
      assert.equal(res.statusCode, 200, res.body);
      const claimResponse = checkEnvelope(request, res.json(), "priorauth-response", "ClaimResponse");
      assert.equal(claimResponse.outcome, "error");
      assert.equal("item" in claimResponse, false);
      const stored = await tenant.call(
        "GET",
        `/approval-request/get-one/${resourceOf(request, "Claim").identifier[0].value}`,
      );
      assert.equal(stored.statusCode, 404, "nothing is stored as a prior authorization");
      return [claimResponse.error[0].code.coding[0].code, claimResponse.disposition];
    };
    // nobody by the member number nor by the patient's national id: no member found
    const [memberCode, why] = await errorOf(claimMessage({ memberId: "NOBODY" }));
    assert.equal(memberCode, "1658");
    assert.match(why, /1012345678/);
    const unknownPatient = claimMessage({ memberId: "NOBODY" });
    delete resourceOf(unknownPatient, "Claim").insurance;
    assert.equal((await errorOf(unknownPatient))[0], "1658");
    const [providerCode] = await errorOf(claimMessage({ provider: "CCHI-404" }));
    assert.equal(providerCode, "1659");
  });

  it("finds the member by the patient's national id when the request names no coverage", async () => {
    await expectStatus(tenant.call("PATCH", "/member/M1", { national_id: "1012345678" }), 200);
    const request = claimMessage({ date: "2026-09-01" });
    delete resourceOf(request, "Claim").insurance;
    const res = await postMessage(ctx, tenant, request);
    assert.equal(res.statusCode, 200, res.body);
    const claimResponse = checkEnvelope(request, res.json(), "priorauth-response", "ClaimResponse");
    assert.equal(claimResponse.outcome, "complete", claimResponse.disposition);
    assert.equal("insurance" in claimResponse, false);
    const pa = await getOne(request);
    assert.deepEqual([pa.member_id, pa.policy_no, pa.ph_erp_id], ["M1", "POL1", "PH1"]);
  });

  it("refuses an invalid message with an OperationOutcome naming each problem, and stores nothing", async () => {
    const request = claimMessage();
    const claim = resourceOf(request, "Claim");
    claim.item[0].productOrService.coding = [];
    claim.item[1].quantity.value = -1;
    const issues = issuesOf(await postMessage(ctx, tenant, request));
    assert.deepEqual(
      issues.map((issue) => [issue.severity, issue.code, issue.expression?.[0]]),
      [
        ["error", "invalid", "Bundle.entry[1].resource.item[0].productOrService.coding"],
        ["error", "invalid", "Bundle.entry[1].resource.item[1].quantity.value"],
      ],
    );
    assert.match(issues[1]?.diagnostics ?? "", /must be >= 0/);
    const res = await tenant.call("GET", `/approval-request/get-one/${claim.identifier[0].value}`);
    assert.equal(res.statusCode, 404, "nothing was stored");
    // the same MessageHeader id, corrected, is processed: the refusal was not recorded as its answer
    claim.item[0].productOrService.coding = [
      { system: `${CS}services`, code: "99213" },
      { system: "x", code: "CONS-1" },
    ];
    claim.item[1].quantity.value = 1;
    assert.equal((await postMessage(ctx, tenant, request)).statusCode, 200);
  });

  it("refuses text no database can store, naming its element", async () => {
    const request = claimMessage();
    resourceOf(request, "Patient").name[0].text = "Nul\u0000here";
    const issues = issuesOf(await postMessage(ctx, tenant, request));
    assert.deepEqual(issues[0]?.expression, ["Bundle.entry[2].resource.name[0].text"]);
    assert.match(issues[0]?.diagnostics ?? "", /NUL/);
  });

  it("refuses what is not JSON, and other media types, as OperationOutcomes", async () => {
    const broken = issuesOf(await postMessage(ctx, tenant, "{ not json"));
    assert.equal(broken[0]?.code, "invalid");
    const text = await postMessage(ctx, tenant, "hello", { "content-type": "text/plain" });
    assert.equal(issuesOf(text, 415)[0]?.code, "not-supported");
  });

  it("answers at the operation's percent-encoded address too", async () => {
    const request = claimMessage();
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${tenant.name}/fhir/%24process-message`,
      headers: { "access-key": tenant.apiKey, "content-type": "application/fhir+json" },
      payload: JSON.stringify(request),
    });
    assert.equal(res.statusCode, 200, res.body);
    checkEnvelope(request, res.json(), "priorauth-response", "ClaimResponse");
  });

  it("refuses a message without the tenant's access-key, as an OperationOutcome", async () => {
    const res = await postMessage(ctx, tenant, claimMessage(), { "access-key": "wrong" });
    const issues = issuesOf(res, 401);
    assert.equal(issues[0]?.code, "login");
  });

  it("serves the CapabilityStatement", async () => {
    const res = await ctx.app.inject({ method: "GET", url: `/${tenant.name}/fhir/metadata` });
    assert.equal(res.statusCode, 200, res.body);
    const statement = res.json();
    assert.equal(statement.resourceType, "CapabilityStatement");
    assert.equal(statement.fhirVersion, "4.0.1");
    assert.equal(
      statement.messaging[0].endpoint[0].address,
      `http://localhost:8080/${tenant.name}/fhir/$process-message`,
    );
    assert.deepEqual(
      statement.messaging[0].supportedMessage.map((message: Json) => message.definition.split("/").at(-1)),
      [
        "priorauth-request",
        "claim-request",
        "eligibility-request",
        "cancel-request",
        "status-check",
        "communication",
        "batch-request",
        "error-notice",
      ],
    );
    const openapi = (await ctx.app.inject({ method: "GET", url: "/openapi.json" })).json();
    assert.ok(openapi.paths["/{tenant}/fhir/$process-message"]?.post, "documented in OpenAPI");
    assert.ok(openapi.paths["/{tenant}/fhir/metadata"]?.get);
  });

  it("adjudicates in lightweight mode, creating the member from the Patient", async () => {
    const light = await ctx.newTenant("lightweight");
    const request = claimMessage({ memberId: "NEW-MEMBER-1", provider: "CCHI-77" });
    const res = await postMessage(ctx, light, request);
    assert.equal(res.statusCode, 200, res.body);
    checkEnvelope(request, res.json(), "priorauth-response", "ClaimResponse");
    const member = await expectStatus(light.call("GET", "/member/NEW-MEMBER-1"), 200);
    assert.equal(member.gender, "FEMALE");
  });
});

describe("NPHIES FHIR: eligibility", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
  });
  after(() => ctx.close());

  async function ask(options: Parameters<typeof eligibilityMessage>[0]) {
    const request = eligibilityMessage(options);
    const res = await postMessage(ctx, tenant, request);
    assert.equal(res.statusCode, 200, res.body);
    const response = checkEnvelope(
      request,
      res.json(),
      "eligibility-response",
      "CoverageEligibilityResponse",
    );
    assert.deepEqual(response.meta.profile, [`${SD}eligibility-response|1.0.0`]);
    const site = response.extension?.find(
      (extension: Json) => extension.url === `${SD}extension-siteEligibility`,
    );
    return { response, site: site?.valueCodeableConcept.coding[0].code };
  }

  it("answers in force with the category's benefits, limits and what is used", async () => {
    const { response, site } = await ask({});
    assert.equal(site, "eligible");
    assert.equal(response.outcome, "complete");
    assert.deepEqual(response.purpose, ["benefits", "validation"]);
    const [insurance] = response.insurance;
    assert.equal(insurance.inforce, true);
    assert.deepEqual(insurance.benefitPeriod, { start: "2026-01-01", end: "2026-12-31" });
    assert.deepEqual(
      insurance.item.map((item: Json) => [item.category.coding[0].code, item.benefit[0].allowedMoney.value]),
      [
        // the whole category as benefit-category 13 (Health Benefit Plan Coverage), then each benefit
        ["13", 10000],
        ["1", 5000],
        ["2", 1000],
      ],
    );
  });

  it("answers not in force outside the policy's dates, for an unknown member, and out of network", async () => {
    const late = await ask({ date: "2027-02-01" });
    assert.equal(late.site, "not-active");
    assert.equal(late.response.insurance[0].inforce, false);
    assert.match(late.response.disposition, /after the member's link ended on 2026-12-31/);
    // nobody by the member number nor the patient's identifiers: outcome error, no member found (1658)
    const unknown = await ask({ memberId: "NOBODY" });
    assert.equal(unknown.response.outcome, "error");
    assert.equal(unknown.response.error[0].code.coding[0].code, "1658");
    assert.equal(unknown.response.insurance, undefined);
    const outside = await ask({ provider: "CCHI-2" });
    assert.equal(outside.site, "out-network");
    assert.equal(outside.response.insurance[0].inforce, true);
  });
});

describe("NPHIES FHIR: a pended request's final response", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("answers pended, then delivers the final bundle to the NPHIES endpoint when the reviewer decides", async () => {
    const tenant = await ctx.newTenant("lightweight");
    await expectStatus(tenant.call("POST", "/user/create", { username: "rev1" }), 201);
    // peers: six members approved for LAB-1 at about 100, so that 1,200 stands out and is held
    for (const [n, amount] of [100, 95, 105, 100, 98, 102].entries())
      await createRequest(tenant, { member_id: `PEER-${n}`, items: [labTest({ claimed_amount: amount })] });
    const receiver = await startReceiver();
    try {
      await expectStatus(
        tenant.call("POST", "/webhook/create", {
          webhook_url: receiver.url,
          hook_type: "NPHIES",
          secret_token: "s3cret",
        }),
        201,
      );
      const lab = {
        system: `${CS}laboratory`,
        code: "80053",
        display: "Metabolic panel",
        own: "LAB-1",
        quantity: 1,
      };
      const request = claimMessage({
        memberId: "OUTLIER-1",
        items: [
          { ...lab, unitPrice: 1200 },
          { ...lab, code: "85025", own: "CBC-1", display: "Complete blood count", unitPrice: 80 },
        ],
      });
      const res = await postMessage(ctx, tenant, request);
      assert.equal(res.statusCode, 200, res.body);
      const first = checkEnvelope(request, res.json(), "priorauth-response", "ClaimResponse");
      assert.equal(first.outcome, "queued");
      assert.equal(outcomeOf(first), "pended");
      assert.deepEqual(first.item.map(outcomeOf), ["pended", "approved"]);
      const score = adjudicationOf(first.item[0], "rejected");
      assert.equal(
        score.reason.coding[0].system,
        "urn:mizan:engine-reason",
        "the score's evidence, as the engine's reason",
      );
      assert.match(score.reason.text, /1,?200/);
      assert.equal(receiver.received.length, 0, "nothing is sent before the decision");

      const transactionId = resourceOf(request, "Claim").identifier[0].value;
      await expectStatus(
        tenant.call("PATCH", `/approval-request/update/${transactionId}`, {
          status: "PARTIALLY_ACCEPTED",
          erp_reviewer_id: "rev1",
          items: [
            {
              erp_item_id: "1",
              status: "ACCEPTED",
              approved_amount: 300,
              approved_quantity: 1,
              reasons: [{ code: "NDC079" }],
            },
          ],
        }),
        200,
      );
      const [delivery] = await receiver.waitFor(1);
      assert.ok(delivery);
      assert.match(String(delivery.headers["content-type"]), /^application\/fhir\+json/);
      assert.ok(delivery.headers["webhook-signature"], "signed like every delivery");
      const final = JSON.parse(delivery.body);
      const response = checkEnvelope(request, final, "priorauth-response", "ClaimResponse");
      assert.equal(headerOf(final).response.identifier, headerOf(request).id);
      assert.equal(response.outcome, "complete");
      assert.equal(outcomeOf(response), "partial");
      const [held, cbc] = response.item;
      assert.equal(outcomeOf(held), "partial");
      assert.equal(amountOf(held, "eligible"), 300);
      assert.equal(amountOf(held, "benefit"), 300);
      assert.ok(
        held.adjudication.some((entry: Json) => entry.reason?.coding[0].code === "BE-1-3"),
        "the reviewer's reason (NDC079), in the v2.6 code list",
      );
      assert.equal(outcomeOf(cbc), "approved");
      assert.equal(amountOf(cbc, "eligible"), 80);
      const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
      assert.equal(pa.status, "PARTIALLY_ACCEPTED");
      assert.equal(pa.reviewer_erp_id, "rev1");
      // recorded like every webhook delivery
      const webhooks = await expectStatus(tenant.call("GET", "/webhook/list"), 200);
      const deliveries = await expectStatus(
        tenant.call("GET", `/webhook/${webhooks.data[0].id}/deliveries`),
        200,
      );
      assert.equal(deliveries.data[0].event_type, "NPHIES_RESPONSE");

      // one object: the JSON API's workflow applies, and every change after the first answer is answered
      const events = await listEvents(ctx.db, tenant.id, "PRE_AUTH_RESULT");
      assert.deepEqual(
        events
          .filter((event) => event.data.transaction_id === transactionId)
          .map((event) => event.data.source),
        ["ENGINE", "REVIEWER"],
      );
      await expectStatus(
        tenant.call("PATCH", `/approval-request/reopen/${transactionId}`, {
          nphies_reopen_reason: "CORRECTION",
          nphies_reopen_at: "2026-03-11T08:00:00.000Z",
          username: "rev1",
        }),
        200,
      );
      // run again by the engine, the outlier is held again: nothing is sent while a person must decide
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(receiver.received.length, 1);
      await expectStatus(
        tenant.call("PATCH", `/approval-request/update/${transactionId}`, {
          status: "ACCEPTED",
          erp_reviewer_id: "rev1",
        }),
        200,
      );
      // the decision after a complete response is a reissue, its reason the reopen's
      const [, reissued] = await receiver.waitFor(2);
      const again = checkEnvelope(
        request,
        JSON.parse(reissued?.body ?? "{}"),
        "priorauth-response",
        "ClaimResponse",
      );
      assert.equal(again.outcome, "complete");
      assert.deepEqual(
        again.extension.find((extension: Json) => extension.url === `${SD}extension-adjudication-reissue`)
          ?.valueCodeableConcept.coding[0],
        { system: `${CS}reissue-reason`, code: "correction" },
      );
      assert.notDeepEqual(again.identifier, response.identifier, "each response is uniquely identified");
      await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${transactionId}`), 200);
      assert.equal(
        (await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200)).status,
        "CANCELLED",
      );
    } finally {
      await receiver.close();
    }
  });
});
