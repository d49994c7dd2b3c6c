import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { createRequest, expectStatus, labTest } from "../prior-auth/fixtures.js";
import { headerOf, type Json, PAYER, resourceOf } from "./bundles.js";
import { getOne, pathsOf, postAnswered, postMessage, receivedClaim, setUpFhirTenant } from "./fixtures.js";
import { packAbsent, sample, taskMessage } from "./pack.js";

const CS = "http://nphies.sa/terminology/CodeSystem/";
const PAYER_LICENSE = "http://nphies.sa/license/payer-license";
/** the NPHIES pack beside the checkout (../shared/reference/nphies), read-only */
const NO_PACK = packAbsent;

/** the response message's envelope checked against its request; its Task */
function taskOf(request: Json, response: Json, event: string): Json {
  const header = response.entry[0].resource;
  const sent = headerOf(request);
  assert.equal(header.resourceType, "MessageHeader", "the MessageHeader first");
  assert.deepEqual(header.eventCoding, { system: `${CS}ksa-message-events`, code: event });
  assert.deepEqual(header.response, { identifier: sent.id, code: "ok" });
  assert.deepEqual(header.sender.identifier, sent.destination[0].receiver.identifier, "from the payer");
  assert.deepEqual(header.destination[0].receiver.identifier, sent.sender.identifier, "to the provider");
  const focus = response.entry.find((entry: Json) => entry.fullUrl === header.focus[0].reference);
  assert.equal(focus?.resource.resourceType, "Task");
  const urls = new Set(response.entry.map((entry: Json) => entry.fullUrl));
  for (const reference of JSON.stringify(focus.resource).matchAll(/"reference":"([^"]+)"/g))
    assert.ok(urls.has(reference[1]), `${reference[1]} resolves in the response`);
  const task = focus.resource;
  const asked = resourceOf(request, "Task");
  assert.deepEqual(task.code, asked.code, "the same code");
  assert.deepEqual(task.focus, asked.focus, "the same focus");
  assert.equal(task.intent, "order");
  assert.ok(task.identifier[0].value, "an identifier of the payer's");
  assert.ok(task.lastModified);
  return task;
}

describe("NPHIES FHIR: cancel-request", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
  });
  after(() => ctx.close());

  it("answers the pack's cancel request (17a) about a Claim it does not hold: the Task failed, not a 4xx", {
    skip: NO_PACK,
  }, async () => {
    const request = sample("17a");
    const res = await postAnswered(ctx, tenant, request);
    assert.match(String(res.headers["content-type"]), /^application\/fhir\+json/);
    const task = taskOf(request, res.json(), "cancel-response");
    assert.equal(task.status, "failed");
    assert.match(task.statusReason.text, /BV-00222/);
    assert.equal(task.output, undefined, "a payer's failed Task carries no output (BV-00256)");
    assert.deepEqual(task.reasonCode, resourceOf(request, "Task").reasonCode, "echoed (BV-00466)");
    assert.deepEqual(
      headerOf(res.json()).sender.identifier,
      { system: PAYER_LICENSE, value: "INS-FHIR" },
      "as 17b: from INS-FHIR",
    );
    const again = await postMessage(ctx, tenant, request);
    assert.equal(again.body, res.body, "a resend gets the same bytes");
  });

  it("cancels a prior authorization received as a message; a second cancel is failed", {
    skip: NO_PACK,
  }, async () => {
    const claim = await receivedClaim(ctx, tenant);
    // another provider cannot cancel it
    const foreign = taskMessage("17a", claim, "CCHI-2");
    assert.equal(
      taskOf(foreign, (await postAnswered(ctx, tenant, foreign)).json(), "cancel-response").status,
      "failed",
    );
    assert.equal((await getOne(tenant, claim.value)).status, "PENDING");

    const cancel = taskMessage("17a", claim);
    const res = await postAnswered(ctx, tenant, cancel);
    const task = taskOf(cancel, res.json(), "cancel-response");
    assert.equal(task.status, "completed");
    assert.equal(task.statusReason, undefined);
    const one = await getOne(tenant, claim.value);
    assert.equal(one.status, "CANCELLED", "the same object get-one shows");
    assert.equal((await postMessage(ctx, tenant, cancel)).body, res.body, "a resend: the same bytes");

    const twice = taskMessage("17a", claim);
    const second = taskOf(twice, (await postAnswered(ctx, tenant, twice)).json(), "cancel-response");
    assert.equal(second.status, "failed");
    assert.match(second.statusReason.text, /already been cancelled/);
  });

  it("nullify cancels alike, without a reason code", { skip: NO_PACK }, async () => {
    const claim = await receivedClaim(ctx, tenant, { kind: "oral" });
    const nullify = taskMessage("17a", claim, "CCHI-1", "nullify");
    delete resourceOf(nullify, "Task").reasonCode;
    const task = taskOf(nullify, (await postAnswered(ctx, tenant, nullify)).json(), "cancel-response");
    assert.equal(task.status, "completed");
    assert.equal(task.reasonCode, undefined);
    assert.equal((await getOne(tenant, claim.value)).status, "CANCELLED");
  });

  it("refuses a cancel-request whose Task is not a cancel, or names no Claim (400 naming the element)", {
    skip: NO_PACK,
  }, async () => {
    const claim = await receivedClaim(ctx, tenant);
    const status = taskMessage("17a", claim, "CCHI-1", "status");
    assert.deepEqual(pathsOf(await postMessage(ctx, tenant, status)), ["Bundle.entry[1].resource.code"]);
    const nothing = taskMessage("17a", claim);
    delete resourceOf(nothing, "Task").focus;
    assert.deepEqual(pathsOf(await postMessage(ctx, tenant, nothing)), [
      "Bundle.entry[1].resource.focus.identifier.value",
    ]);
    assert.equal((await getOne(tenant, claim.value)).status, "PENDING", "nothing was cancelled");
  });
});

describe("NPHIES FHIR: status-check", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  const statusOf = (task: Json) => {
    assert.equal(task.status, "completed");
    assert.deepEqual(task.output[0].type, {
      coding: [{ system: `${CS}task-output-type`, code: "status" }],
    });
    return task.output[0].valueCode;
  };

  it("answers the pack's status check (9b) about a Claim it does not hold: the Task failed", {
    skip: NO_PACK,
  }, async () => {
    const request = sample("9b");
    const task = taskOf(request, (await postAnswered(ctx, ctx.tenant, request)).json(), "status-response");
    assert.equal(task.status, "failed");
    assert.match(task.statusReason.text, /BV-00459/);
    assert.equal(task.output, undefined);
  });

  it("answers complete for a decided request, queued while a reviewer has it, then complete and cancelled", {
    skip: NO_PACK,
  }, async () => {
    const tenant = await ctx.newTenant("lightweight");
    await expectStatus(tenant.call("POST", "/user/create", { username: "rev1" }), 201);
    const check = async (claim: Json) => {
      const request = taskMessage("9b", claim);
      return statusOf(taskOf(request, (await postAnswered(ctx, tenant, request)).json(), "status-response"));
    };
    assert.equal(await check(await receivedClaim(ctx, tenant)), "complete", "the engine decided every item");

    // peers approved for LAB-1 at about 100, so that 1,200 stands out and is held for a reviewer
    for (const [n, amount] of [100, 95, 105, 100, 98, 102].entries())
      await createRequest(tenant, { member_id: `PEER-${n}`, items: [labTest({ claimed_amount: amount })] });
    const lab = {
      system: `${CS}laboratory`,
      code: "80053",
      display: "Metabolic panel",
      own: "LAB-1",
      quantity: 1,
    };
    const held = await receivedClaim(ctx, tenant, {
      memberId: "OUTLIER-1",
      items: [{ ...lab, unitPrice: 1200 }],
    });
    assert.equal(await check(held), "queued");
    await expectStatus(
      tenant.call("PATCH", `/approval-request/update/${held.value}`, {
        status: "ACCEPTED",
        erp_reviewer_id: "rev1",
      }),
      200,
    );
    assert.equal(await check(held), "complete");
    await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${held.value}`), 200);
    assert.equal(await check(held), "cancelled");
  });
});

describe("NPHIES FHIR: error-notice", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("acknowledges an error-notice with a MessageHeader alone", async () => {
    const outcome = `urn:uuid:${randomUUID()}`;
    const notice = {
      resourceType: "Bundle",
      id: randomUUID(),
      type: "message",
      timestamp: "2026-03-10T08:00:00+03:00",
      entry: [
        {
          fullUrl: `urn:uuid:${randomUUID()}`,
          resource: {
            resourceType: "MessageHeader",
            id: randomUUID(),
            eventCoding: { system: `${CS}ksa-message-events`, code: "error-notice" },
            destination: [{ receiver: { identifier: { system: PAYER_LICENSE, value: PAYER } } }],
            sender: { identifier: { system: "http://nphies.sa/license/nphies", value: "NPHIES" } },
            focus: [{ reference: outcome }],
          },
        },
        {
          fullUrl: outcome,
          resource: {
            resourceType: "OperationOutcome",
            issue: [{ severity: "error", code: "business-rule", diagnostics: "BV-00003" }],
          },
        },
      ],
    };
    const res = await postAnswered(ctx, ctx.tenant, notice);
    const answer = res.json();
    assert.equal(answer.entry.length, 1, "the MessageHeader alone");
    const header = answer.entry[0].resource;
    assert.deepEqual(header.eventCoding, { system: `${CS}ksa-message-events`, code: "acknowledgement" });
    assert.deepEqual(header.response, { identifier: notice.entry[0]?.resource.id, code: "ok" });
    assert.equal(header.focus, undefined);
    assert.deepEqual(header.sender.identifier, { system: PAYER_LICENSE, value: PAYER });
  });
});
