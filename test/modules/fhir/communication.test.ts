import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createCommunication } from "../../../src/modules/prior-auth/communications/service.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { createRequest, expectStatus, labTest } from "../prior-auth/fixtures.js";
import { headerOf, type Json, resourceOf } from "./bundles.js";
import { getOne, issuesOf, postAnswered, postMessage, receivedClaim, setUpFhirTenant } from "./fixtures.js";
import { communicationMessage, packAbsent, sample } from "./pack.js";

const CS = "http://nphies.sa/terminology/CodeSystem/";
const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const PAYER_LICENSE = "http://nphies.sa/license/payer-license";
/** the NPHIES pack beside the checkout (../shared/reference/nphies), read-only */
const NO_PACK = packAbsent;
const SOLICITED = "18b";
const UNSOLICITED = "18c";

/** the sample's PDF (its second payload) as sent */
const pdfOf = (message: Json): string =>
  resourceOf(message, "Communication").payload[1].contentAttachment.data;

/** the acknowledgement's MessageHeader, its envelope checked against the request */
function acknowledgementOf(request: Json, response: Json, answer: "taken" | "not-taken"): Json {
  const header = response.entry[0].resource;
  const sent = headerOf(request);
  assert.equal(header.resourceType, "MessageHeader", "the MessageHeader first");
  assert.deepEqual(header.eventCoding, { system: `${CS}ksa-message-events`, code: "acknowledgement" });
  assert.equal(header.response.identifier, sent.id);
  // ok either way (docs/operator-contract.md section 11); what was not taken carries an OperationOutcome saying why
  assert.equal(header.response.code, "ok");
  assert.equal(header.response.details === undefined, answer === "taken");
  assert.deepEqual(header.sender.identifier, sent.destination[0].receiver.identifier, "from the payer");
  assert.deepEqual(header.destination[0].receiver.identifier, sent.sender.identifier, "to the provider");
  const urls = new Set(response.entry.map((entry: Json) => entry.fullUrl));
  for (const reference of JSON.stringify(header).matchAll(/"reference":"([^"]+)"/g))
    assert.ok(urls.has(reference[1]), `${reference[1]} resolves in the response`);
  if (answer === "taken") {
    assert.equal(response.entry.length, 1, "a MessageHeader alone");
    assert.equal(header.focus, undefined);
  }
  return header;
}

/** the OperationOutcome an acknowledgement of what was not taken carries, as its details and focus */
function outcomeOf(response: Json): Json {
  const header = response.entry[0].resource;
  assert.equal(header.focus[0].reference, header.response.details.reference);
  const outcome = response.entry.find((entry: Json) => entry.fullUrl === header.response.details.reference);
  assert.equal(outcome?.resource.resourceType, "OperationOutcome");
  return outcome.resource;
}

const attachmentsOf = (ctx: TestContext, tenant: TenantClient) =>
  ctx.db.query<{ id: number; content_type: string; title: string; data: Uint8Array }>(
    "SELECT id, content_type, title, data FROM fhir_attachments WHERE tenant_id = $1 ORDER BY id",
    [tenant.id],
  );

describe("NPHIES FHIR: communication", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await setUpFhirTenant(ctx.tenant);
  });
  after(() => ctx.close());

  it("answers the pack's communications (18b, 18c) about Claims it does not hold: answered ok with why nothing was kept", {
    skip: NO_PACK,
  }, async () => {
    const tenant = await ctx.newTenant();
    for (const name of [SOLICITED, UNSOLICITED]) {
      const request = sample(name);
      const res = await postAnswered(ctx, tenant, request);
      const header = acknowledgementOf(request, res.json(), "not-taken");
      assert.deepEqual(header.sender.identifier, { system: PAYER_LICENSE, value: "N-I-00001" });
      const [issue] = outcomeOf(res.json()).issue;
      assert.equal(issue.details.coding[0].code, "BV-00148");
      assert.deepEqual(issue.expression, ["Bundle.entry[1].resource.about[0].identifier"]);
      assert.equal((await postMessage(ctx, tenant, request)).body, res.body, "a resend: the same bytes");
    }
    assert.deepEqual(await attachmentsOf(ctx, tenant), []);
  });

  it("keeps a solicited communication with its PDF: get-one shows it, the bytes are stored exactly, a pended request runs again", {
    skip: NO_PACK,
  }, async () => {
    const { tenant } = ctx;
    const claim = await receivedClaim(ctx, tenant);
    const before = await getOne(tenant, claim.value);
    assert.equal(before.status, "PENDING", "no reviewer has decided it yet");
    const request = communicationMessage(SOLICITED, claim);
    const res = await postAnswered(ctx, tenant, request);
    acknowledgementOf(request, res.json(), "taken");

    const one = await getOne(tenant, claim.value);
    assert.equal(one.engine_runs, before.engine_runs + 1, "adjudicated again with it");
    assert.equal(one.communications.length, 1);
    const [communication] = one.communications;
    const pdf = Buffer.from(pdfOf(request), "base64");
    assert.equal(communication.title, "Lab Report");
    assert.equal(communication.size, String(pdf.length));
    assert.equal(communication.user_name, "CCHI-1");
    assert.match(communication.content, /In reply to communication request CommReq_302568/);
    assert.match(communication.content, /please find the enclosed updated lab report/);
    const [stored] = await attachmentsOf(ctx, tenant);
    assert.ok(stored);
    assert.equal(communication.path, `fhir-attachment:${stored.id}`);
    assert.equal(stored.content_type, "application/pdf");
    assert.equal(stored.title, "Lab Report");
    assert.ok(Buffer.from(stored.data).equals(pdf), "the decoded bytes, exactly");
    assert.equal(Buffer.from(stored.data).subarray(0, 5).toString(), "%PDF-");

    const again = await postMessage(ctx, tenant, request);
    assert.equal(again.body, res.body, "a resend: the same bytes");
    assert.equal((await getOne(tenant, claim.value)).communications.length, 1, "kept once");
  });

  it("keeps an unsolicited communication about a decided request without adjudicating it again", {
    skip: NO_PACK,
  }, async () => {
    const { tenant } = ctx;
    const claim = await receivedClaim(ctx, tenant);
    await expectStatus(
      tenant.call("PATCH", `/approval-request/update/${claim.value}`, {
        status: "ACCEPTED",
        erp_reviewer_id: "rev1",
      }),
      200,
    );
    const decided = await getOne(tenant, claim.value);
    const request = communicationMessage(UNSOLICITED, claim);
    // the item this is about (test cases: Communication.payload.extension.ClaimItemSequence)
    resourceOf(request, "Communication").payload[0].extension = [
      { url: `${SD}extension-claimItemSequence`, valuePositiveInt: 1 },
    ];
    acknowledgementOf(request, (await postAnswered(ctx, tenant, request)).json(), "taken");
    const one = await getOne(tenant, claim.value);
    assert.equal(one.status, "ACCEPTED", "the reviewer's decision stands");
    assert.equal(one.engine_runs, decided.engine_runs);
    assert.match(one.communications[0].content, /^\[item 1\] Please find the attached lab report/);
    assert.equal(one.history.at(-1).action, "communication");
  });

  it("keeps a communication sent twice at once only once, both answered alike", {
    skip: NO_PACK,
  }, async () => {
    const { tenant } = ctx;
    const claim = await receivedClaim(ctx, tenant);
    const request = communicationMessage(UNSOLICITED, claim);
    const [first, second] = await Promise.all([
      postAnswered(ctx, tenant, request),
      postAnswered(ctx, tenant, request),
    ]);
    assert.equal(first.body, second.body);
    assert.equal((await getOne(tenant, claim.value)).communications.length, 1);
  });

  it("the JSON API's communication still re-evaluates a decided request (reevaluate: always)", async () => {
    const { tenant } = ctx;
    const { body } = await createRequest(tenant, { items: [labTest({ claimed_amount: 5 })] });
    await expectStatus(
      tenant.call("PATCH", `/approval-request/update/${body.transaction_id}`, {
        status: "REJECTED",
        erp_reviewer_id: "rev1",
      }),
      200,
    );
    const actor = { tenantId: tenant.id, actor: "test", requestId: undefined };
    await createCommunication(ctx.db, ctx.jobs, actor, { transaction_id: body.transaction_id, content: "x" });
    assert.equal((await getOne(tenant, body.transaction_id)).status, "PENDING");
    await expectStatus(
      tenant.call("PATCH", `/approval-request/update/${body.transaction_id}`, {
        status: "REJECTED",
        erp_reviewer_id: "rev1",
      }),
      200,
    );
    await createCommunication(
      ctx.db,
      ctx.jobs,
      actor,
      { transaction_id: body.transaction_id, content: "y" },
      new Date(),
      { reevaluate: "if-pending" },
    );
    const one = await getOne(tenant, body.transaction_id);
    assert.equal(one.status, "REJECTED", "if-pending: a decided request keeps its decision");
    assert.equal(one.communications.length, 2);
  });

  it("answers that nothing was taken about a cancelled request, and keeps nothing", {
    skip: NO_PACK,
  }, async () => {
    const tenant = await ctx.newTenant();
    await setUpFhirTenant(tenant);
    const claim = await receivedClaim(ctx, tenant);
    await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${claim.value}`), 200);
    const request = communicationMessage(UNSOLICITED, claim);
    const res = await postAnswered(ctx, tenant, request);
    acknowledgementOf(request, res.json(), "not-taken");
    assert.equal(outcomeOf(res.json()).issue[0].details.coding[0].code, "BV-00148");
    assert.deepEqual((await getOne(tenant, claim.value)).communications, []);
    assert.deepEqual(await attachmentsOf(ctx, tenant), []);
  });

  it("refuses attachment data that is not base64 (400 naming it), and a message over 10 MB; keeps nothing", {
    skip: NO_PACK,
  }, async () => {
    const tenant = await ctx.newTenant();
    await setUpFhirTenant(tenant);
    const claim = await receivedClaim(ctx, tenant);
    const hostile = communicationMessage(UNSOLICITED, claim);
    resourceOf(hostile, "Communication").payload[1].contentAttachment.data = "JVBERi0x<script>==";
    const issues = issuesOf(await postMessage(ctx, tenant, hostile));
    assert.deepEqual(
      issues.flatMap((issue) => issue.expression ?? []),
      ["Bundle.entry[1].resource.payload[1].contentAttachment.data"],
    );
    const unpadded = communicationMessage(UNSOLICITED, claim);
    resourceOf(unpadded, "Communication").payload[1].contentAttachment.data = "JVBERi0";
    assert.equal((await postMessage(ctx, tenant, unpadded)).statusCode, 400);

    const huge = communicationMessage(UNSOLICITED, claim);
    resourceOf(huge, "Communication").payload[1].contentAttachment.data = Buffer.alloc(
      12 * 1024 * 1024,
    ).toString("base64");
    assert.equal((await postMessage(ctx, tenant, huge)).statusCode, 413);
    assert.deepEqual((await getOne(tenant, claim.value)).communications, []);
    assert.deepEqual(await attachmentsOf(ctx, tenant), []);
  });
});
