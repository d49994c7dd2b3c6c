import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  PRIOR_AUTH_INFORMATION_REQUESTED,
  type PriorAuthInformationRequested,
} from "../../../src/modules/prior-auth/events.js";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { reactTo } from "../../../src/platform/events/reactions.js";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { type Receiver, signedWith, startReceiver } from "../../platform/events/webhook-receiver.js";
import { createRequest, expectError, expectStatus, setUpStandard } from "./fixtures.js";

const ask = (tenant: TenantClient, body: Record<string, unknown>) =>
  tenant.call("POST", "/communication-request/create", body);
const getOne = (tenant: TenantClient, transactionId: string) =>
  expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);

/** a fresh request on its own date (no item is a duplicate of another test's) */
let day = 0;
async function fresh(tenant: TenantClient) {
  day += 1;
  const date = new Date(Date.UTC(2026, 0, 2) + day * 35 * 86_400_000).toISOString();
  const { body } = await createRequest(tenant, { treatment_date: date, request_date: date });
  return body.transaction_id as string;
}

/** the first delivery about the request (earlier tests' deliveries may still arrive meanwhile) */
async function deliveryAbout(receiver: Receiver, transactionId: string) {
  for (let count = 1; ; count++) {
    const received = await receiver.waitFor(count);
    const found = received.find((delivery) => delivery.json.data.transaction_id === transactionId);
    if (found !== undefined) return found;
  }
}

async function storedRows(ctx: TestContext, tenantId: number) {
  return ctx.db.query<{ reviewer: string; content: string; erp_item_ids: string[] }>(
    "SELECT reviewer, content, erp_item_ids FROM information_requests WHERE tenant_id = $1 ORDER BY id",
    [tenantId],
  );
}

describe("prior authorization: a reviewer asks the provider for information", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  let receiver: Receiver;
  /** the domain events' data published, as a reacting area receives it */
  const published: PriorAuthInformationRequested[] = [];
  before(async () => {
    reactTo(
      PRIOR_AUTH_INFORMATION_REQUESTED,
      "test.information-requested",
      async (_tx, _jobs, _actor, data) => {
        published.push(data);
      },
    );
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpStandard(tenant);
    receiver = await startReceiver();
    await expectStatus(
      tenant.call("POST", "/webhook/create", {
        webhook_url: receiver.url,
        hook_type: "COMMUNICATION",
        secret_token: "s3cret",
      }),
      201,
    );
  });
  after(async () => {
    await receiver.close();
    await ctx.close();
  });

  it("stores the question, keeps the request PENDING, and shows it in get-one, history and audit", async () => {
    const transactionId = await fresh(tenant);
    const content = "Please send the lab report with HbA1c, LFT and lipid profile.";
    const created = await expectStatus(
      ask(tenant, { transaction_id: transactionId, erp_reviewer_id: "rev1", content, erp_item_ids: ["I2"] }),
      201,
    );
    assert.equal(typeof created.id, "number");
    assert.deepEqual(
      { code: created.code, message: created.message },
      { code: 201, message: "Communication request created successfully" },
    );

    const pa = await getOne(tenant, transactionId);
    assert.equal(pa.status, "PENDING", "it waits for the answer");
    assert.equal(pa.engine_runs, 1, "asking runs no engine");
    assert.equal(pa.communication_requests.length, 1);
    const [asked] = pa.communication_requests;
    assert.deepEqual(
      { ...asked, created_at: undefined },
      { id: created.id, reviewer: "rev1", content, erp_item_ids: ["I2"], created_at: undefined },
    );
    assert.ok(Math.abs(Date.parse(asked.created_at) - Date.now()) < 60_000);
    const last = pa.history.at(-1);
    assert.deepEqual(
      [last.action, last.from_status, last.to_status, last.details.information_request_id],
      ["information-request", "PENDING", "PENDING", created.id],
    );
    assert.match(last.actor, /^api-key:/);
    assert.deepEqual(await auditActions(ctx.db, tenant.id, "prior-authorization", transactionId), [
      "prior-authorization.create",
      "prior-authorization.information-request",
    ]);
    const [row] = (await storedRows(ctx, tenant.id)).slice(-1);
    assert.deepEqual(row, { reviewer: "rev1", content, erp_item_ids: ["I2"] });

    // the domain event, for the FHIR area: the items by 0-based index in the request
    const event = published.find((candidate) => candidate.transactionId === transactionId);
    const expected: PriorAuthInformationRequested = {
      priorAuthId: pa.pre_auth_internal_id,
      transactionId,
      informationRequestId: created.id,
      content,
      itemIndexes: [1],
      reviewer: "rev1",
      createdAt: asked.created_at,
    };
    assert.deepEqual(event, expected);
  });

  it("delivers a COMMUNICATION_REQUEST event to the COMMUNICATION webhook, signed, with the whole request", async () => {
    const transactionId = await fresh(tenant);
    const preAuthResults = async () =>
      (await listEvents(ctx.db, tenant.id, "PRE_AUTH_RESULT")).filter(
        (event) => event.data.transaction_id === transactionId,
      ).length;
    const resultsBefore = await preAuthResults();
    const created = await expectStatus(
      ask(tenant, { transaction_id: transactionId, erp_reviewer_id: "rev1", content: "Invoice, please" }),
      201,
    );
    const delivery = await deliveryAbout(receiver, transactionId);
    assert.ok(signedWith("s3cret", delivery), "signed like every delivery");
    assert.match(String(delivery.headers["content-type"]), /^application\/json/);
    assert.equal(delivery.json.event_type, "COMMUNICATION_REQUEST");
    const data = delivery.json.data;
    assert.equal(data.transaction_id, transactionId);
    assert.equal(data.status, "PENDING");
    assert.equal(data.source, "REVIEWER");
    assert.ok(
      Array.isArray(data.items_decisions),
      "the request's event data, as every prior-authorization event",
    );
    const asked = (await getOne(tenant, transactionId)).communication_requests[0];
    assert.deepEqual(data.communication_request, {
      id: created.id,
      content: "Invoice, please",
      erp_item_ids: [],
      reviewer: "rev1",
      created_at: asked.created_at,
    });
    const events = (await listEvents(ctx.db, tenant.id, "COMMUNICATION")).filter(
      (event) => event.data.transaction_id === transactionId,
    );
    assert.deepEqual(
      events.map((event) => event.event_type),
      ["COMMUNICATION_REQUEST"],
    );
    assert.equal(await preAuthResults(), resultsBefore, "no decision changed: no PRE_AUTH_RESULT");
  });

  it("refuses an unknown request, reviewer or item, and a cancelled request, storing nothing", async () => {
    const transactionId = await fresh(tenant);
    const body = { transaction_id: transactionId, erp_reviewer_id: "rev1", content: "Lab report" };
    const stored = (await storedRows(ctx, tenant.id)).length;
    const events = (await listEvents(ctx.db, tenant.id)).length;
    const seen = published.length;
    await expectError(ask(tenant, { ...body, transaction_id: "TX-NOWHERE" }), 404, "E_EPA_064");
    await expectError(ask(tenant, { ...body, erp_reviewer_id: "nobody" }), 404, "E_EPA_10");
    await expectError(ask(tenant, { ...body, erp_item_ids: ["I1", "I9"] }), 404, "E_EPA_11");
    // another tenant's request is no request of this one
    const other = await ctx.newTenant();
    await expectStatus(other.call("POST", "/user/create", { username: "rev1" }), 201);
    await expectError(ask(other, body), 404, "E_EPA_064");
    await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${transactionId}`), 200);
    await expectError(ask(tenant, body), 422, "E_EPA_15");
    assert.equal((await storedRows(ctx, tenant.id)).length, stored);
    assert.equal((await listEvents(ctx.db, tenant.id)).length, events);
    assert.equal(published.length, seen, "nothing published for a refusal");
    assert.deepEqual((await getOne(tenant, transactionId)).communication_requests, []);
  });

  it("validates the body: content 1..10,000 characters not blank, the reviewer, item ids as text", async () => {
    const transactionId = await fresh(tenant);
    const body = { transaction_id: transactionId, erp_reviewer_id: "rev1", content: "Lab report" };
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ ...body, content: "" }, /content/],
      [{ ...body, content: "   " }, /content/],
      [{ ...body, content: "x".repeat(10_001) }, /content/],
      [{ transaction_id: transactionId, erp_reviewer_id: "rev1" }, /content/],
      [{ transaction_id: transactionId, content: "Lab report" }, /erp_reviewer_id/],
      [{ ...body, erp_item_ids: "I1" }, /erp_item_ids/],
      [{ ...body, erp_item_ids: [""] }, /erp_item_ids/],
    ];
    for (const [sent, field] of refusals) {
      const refused = await expectError(ask(tenant, sent), 400, "E_BAD_REQUEST_400");
      assert.match(JSON.stringify(refused), field, JSON.stringify(sent).slice(0, 80));
    }
    await expectStatus(ask(tenant, { ...body, content: "x".repeat(10_000) }), 201);
  });
});
