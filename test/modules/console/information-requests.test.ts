import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import { createOutlierMember, createReviewer, getPage, heldRequest, postForm, signIn } from "./fixtures.js";

describe("reviewer console: asking the provider for information", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  let transactionId: string;
  let session: { cookie: string; csrf: string };
  before(async () => {
    ctx = await startTestApp();
    tenant = await ctx.newTenant("lightweight");
    await createReviewer(tenant, "rev1");
    await createOutlierMember(tenant, "Noura Al-Qahtani", "FEMALE");
    transactionId = await heldRequest(tenant);
    session = await signIn(ctx, tenant);
  });
  after(() => ctx.close());

  const requestUrl = () => `/${tenant.name}/console/requests/${transactionId}`;
  const ask = (fields: Record<string, string>) =>
    postForm(ctx, `${requestUrl()}/information-request`, fields, session.cookie);
  const getOne = () => expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);

  it("shows the form on a request's page", async () => {
    const res = await getPage(ctx, requestUrl(), session.cookie);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`<form method="post" action="${requestUrl()}/information-request"`));
    assert.match(res.body, /<textarea name="content"[^>]*required>/);
    assert.match(res.body, /data-action="request-information"/);
    assert.doesNotMatch(res.body, /Information requested/, "nothing asked yet");
  });

  it("refuses a write without the session's CSRF token, and blank content, storing nothing", async () => {
    const forged = await ask({ content: "The lab report" });
    assert.equal(forged.statusCode, 403);
    const blank = await ask({ csrf: session.csrf, content: "  " });
    assert.equal(blank.statusCode, 400);
    assert.match(blank.body, /class="message error"/);
    assert.deepEqual((await getOne()).communication_requests, []);
  });

  it("asks through the same service as the signed-in reviewer, and lists what was asked", async () => {
    const content = "Send the <b>lab report</b> for the HbA1c test";
    const res = await ask({ csrf: session.csrf, content });
    assert.equal(res.statusCode, 303, res.body);
    assert.match(String(res.headers.location), /done=information-requested/);
    const pa = await getOne();
    assert.equal(pa.status, "PENDING", "the request waits for the answer");
    assert.equal(pa.communication_requests.length, 1);
    assert.deepEqual(
      [pa.communication_requests[0].reviewer, pa.communication_requests[0].content],
      ["rev1", content],
    );
    const history = pa.history.at(-1);
    assert.deepEqual([history.action, history.actor], ["information-request", "console:rev1"]);
    const events = (await listEvents(ctx.db, tenant.id, "COMMUNICATION")).filter(
      (event) => event.data.transaction_id === transactionId,
    );
    assert.deepEqual(
      events.map((event) => event.event_type),
      ["COMMUNICATION_REQUEST"],
    );

    const page = await getPage(ctx, String(res.headers.location), session.cookie);
    assert.match(page.body, /role="status">Information requested from the provider/);
    assert.match(page.body, /<h2>Information requested<\/h2>/);
    assert.match(
      page.body,
      new RegExp(`data-information-request-id="${pa.communication_requests[0].id}"[^]*rev1`),
    );
    assert.match(page.body, /Send the &lt;b&gt;lab report&lt;\/b&gt; for the HbA1c test/, "escaped");
  });

  it("offers no form on a cancelled request, and the service refuses one posted anyway", async () => {
    await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${transactionId}`), 200);
    const page = await getPage(ctx, requestUrl(), session.cookie);
    assert.doesNotMatch(page.body, /data-action="request-information"/);
    assert.match(page.body, /<h2>Information requested<\/h2>/, "what was asked stays listed");
    const refused = await ask({ csrf: session.csrf, content: "Anything else?" });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /is cancelled/);
    assert.equal((await getOne()).communication_requests.length, 1);
  });
});
