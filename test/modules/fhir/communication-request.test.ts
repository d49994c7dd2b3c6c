import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { registerCommunicationRequests } from "../../../src/modules/fhir/communication-request.js";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { type Receiver, signedWith, startReceiver } from "../../platform/events/webhook-receiver.js";
import { createRequest, expectStatus } from "../prior-auth/fixtures.js";
import { claimMessage, headerOf, type Json, PAYER, resourceOf } from "./bundles.js";
import { postMessage, setUpFhirTenant } from "./fixtures.js";

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const PROVIDER_LICENSE = "http://nphies.sa/license/provider-license";
const PAYER_LICENSE = "http://nphies.sa/license/payer-license";

/** the entry a reference names inside the bundle (by fullUrl) */
const entryAt = (bundle: Json, reference: string) =>
  bundle.entry.find((entry: Json) => entry.fullUrl === reference)?.resource;

describe("NPHIES FHIR: a reviewer's request for information goes to the provider as a communication-request", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  let receiver: Receiver;
  before(async () => {
    registerCommunicationRequests();
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
    receiver = await startReceiver();
    await expectStatus(
      tenant.call("POST", "/webhook/create", {
        webhook_url: receiver.url,
        hook_type: "NPHIES",
        secret_token: "s3cret",
      }),
      201,
    );
  });
  after(async () => {
    await receiver.close();
    await ctx.close();
  });

  it("delivers the communication-request message about the Claim, with the text and the items asked about", async () => {
    const request = claimMessage();
    const res = await postMessage(ctx, tenant, request);
    assert.equal(res.statusCode, 200, res.body);
    const claim = resourceOf(request, "Claim");
    const transactionId = claim.identifier[0].value;
    const content = "Please provide an updated lab report including HbA1c, LFT and lipid profile.";
    const created = await expectStatus(
      tenant.call("POST", "/communication-request/create", {
        transaction_id: transactionId,
        erp_reviewer_id: "rev1",
        content,
        erp_item_ids: ["2"],
      }),
      201,
    );

    const [delivery] = await receiver.waitFor(1);
    assert.ok(delivery);
    assert.match(String(delivery.headers["content-type"]), /^application\/fhir\+json/);
    assert.ok(signedWith("s3cret", delivery), "signed like every delivery");
    const bundle: Json = JSON.parse(delivery.body);
    assert.equal(bundle.resourceType, "Bundle");
    assert.equal(bundle.type, "message");
    assert.deepEqual(bundle.meta.profile, [`${SD}bundle|1.0.0`]);

    // the payer writes first: no response element; from the payer licence the request was addressed to
    const header = headerOf(bundle);
    assert.equal(bundle.entry[0].resource.resourceType, "MessageHeader");
    assert.equal(header.eventCoding.code, "communication-request");
    assert.equal(header.response, undefined);
    assert.deepEqual(header.sender.identifier, { system: PAYER_LICENSE, value: PAYER });
    assert.deepEqual(header.destination[0].receiver.identifier, {
      system: PROVIDER_LICENSE,
      value: "CCHI-1",
    });

    const focus = entryAt(bundle, header.focus[0].reference);
    assert.equal(focus?.resourceType, "CommunicationRequest");
    assert.deepEqual(focus.meta.profile, [`${SD}communication-request|1.0.0`]);
    assert.deepEqual(focus.identifier, [
      {
        system: `${PAYER_LICENSE}/${PAYER}/communicationrequest`,
        value: `${transactionId}-cr-${created.id}`,
      },
    ]);
    assert.equal(focus.status, "active");
    assert.equal(focus.category[0].coding[0].code, "instruction");
    assert.equal(focus.priority, "routine");
    assert.deepEqual(focus.about, [{ type: "Claim", identifier: claim.identifier[0] }]);
    assert.equal(focus.payload[0].contentString, content);
    assert.deepEqual(
      focus.payload.slice(1).map((payload: Json) => payload.extension),
      [[{ url: `${SD}extension-claimItemSequence`, valuePositiveInt: 2 }]],
      "one payload per item asked about, carrying its sequence",
    );
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.equal(focus.authoredOn, pa.communication_requests[0].created_at);
    assert.equal(pa.status, "PENDING");

    // every reference resolves inside the bundle: the patient, provider and insurer as the request sent them
    const urls = new Set(bundle.entry.map((entry: Json) => entry.fullUrl));
    for (const reference of delivery.body.matchAll(/"reference":"([^"]+)"/g))
      assert.ok(urls.has(reference[1]), `${reference[1]} resolves in the bundle`);
    assert.deepEqual(entryAt(bundle, focus.subject.reference), resourceOf(request, "Patient"));
    const recipient = entryAt(bundle, focus.recipient[0].reference);
    assert.deepEqual(recipient?.identifier, [header.destination[0].receiver.identifier]);
    const sender = entryAt(bundle, focus.sender.reference);
    assert.equal(sender?.resourceType, "Organization");
    assert.deepEqual(sender.identifier, [header.sender.identifier]);

    // recorded like every webhook delivery, and nothing else went to NPHIES
    const webhooks = await expectStatus(tenant.call("GET", "/webhook/list"), 200);
    const deliveries = await expectStatus(
      tenant.call("GET", `/webhook/${webhooks.data[0].id}/deliveries`),
      200,
    );
    assert.deepEqual(
      deliveries.data.map((recorded: Json) => recorded.event_type),
      ["NPHIES_RESPONSE"],
    );
    assert.equal(receiver.received.length, 1);
  });

  it("sends nothing to NPHIES for a request created through the JSON API", async () => {
    const { body } = await createRequest(tenant, {
      treatment_date: "2026-06-10T09:00:00.000Z",
      request_date: "2026-06-10T08:00:00.000Z",
    });
    const sent = (await listEvents(ctx.db, tenant.id, "NPHIES")).length;
    await expectStatus(
      tenant.call("POST", "/communication-request/create", {
        transaction_id: body.transaction_id,
        erp_reviewer_id: "rev1",
        content: "The invoice, please",
        erp_item_ids: ["I1"],
      }),
      201,
    );
    assert.equal((await listEvents(ctx.db, tenant.id, "NPHIES")).length, sent);
    const pa = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${body.transaction_id}`),
      200,
    );
    assert.equal(pa.communication_requests.length, 1, "asked all the same");
  });
});
