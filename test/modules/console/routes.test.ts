import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { REOPEN_REASONS } from "../../../src/modules/prior-auth/schemas.js";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import {
  createOutlierMember,
  createReviewer,
  getPage,
  heldRequest,
  PASSWORD,
  postForm,
  signIn,
} from "./fixtures.js";

/** a refused sign-in: the form again with the message, and no session */
function refused(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers["set-cookie"], undefined);
  assert.match(res.body, /The username or password is not right, or the account cannot sign in now\./);
  assert.match(res.body, /<input name="password" type="password"/);
}

describe("reviewer console: signing in", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = await ctx.newTenant("lightweight");
    await createReviewer(tenant);
  });
  after(() => ctx.close());

  it("shows the sign-in form, served under a Content-Security-Policy without inline scripts", async () => {
    const res = await getPage(ctx, `/${tenant.name}/console/`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers["content-type"]), /^text\/html/);
    assert.match(res.body, /<input name="username"/);
    assert.match(res.body, /<input name="password" type="password"/);
    assert.match(res.body, /<button type="submit">Sign in<\/button>/);
    const csp = String(res.headers["content-security-policy"]);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(res.headers["x-frame-options"], "DENY");
    // every script is a file of the package; no inline script or style anywhere
    assert.deepEqual(
      [...res.body.matchAll(/<script([^>]*)>/g)].map((match) => match[1]),
      [` src="/${tenant.name}/console/assets/console.js" defer`],
    );
    assert.doesNotMatch(res.body, /style=|<style/);
    for (const missing of ["constructor", "__proto__", "..%2Fapp.js", "nothing.css"])
      assert.equal(
        (await getPage(ctx, `/${tenant.name}/console/assets/${missing}`)).statusCode,
        404,
        missing,
      );
    const script = await getPage(ctx, `/${tenant.name}/console/assets/console.js`);
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers["content-type"]), /javascript/);
  });

  it("signs in with an HttpOnly SameSite=Strict cookie, and signs out", async () => {
    const res = await postForm(ctx, `/${tenant.name}/console/sign-in`, {
      username: "rev1",
      password: PASSWORD,
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/${tenant.name}/console/`);
    const cookie = String(res.headers["set-cookie"]);
    assert.match(
      cookie,
      /^mizan_console=[\w-]{40,}; Path=\/[\w-]+\/console; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    const session = cookie.split(";")[0] as string;
    const queue = await getPage(ctx, `/${tenant.name}/console/`, session);
    assert.match(queue.body, /data-action="sign-out"/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(queue.body)?.[1] ?? "";
    const out = await postForm(ctx, `/${tenant.name}/console/sign-out`, { csrf }, session);
    assert.equal(out.statusCode, 303);
    assert.match(String(out.headers["set-cookie"]), /^mizan_console=; .*Max-Age=0/);
    const after = await getPage(ctx, `/${tenant.name}/console/`, session);
    assert.match(after.body, /<title>Sign in/, "the session ended with the sign-out");
  });

  it("answers wrong credentials with the form again, saying nothing of which part was wrong", async () => {
    const wrongPassword = await postForm(ctx, `/${tenant.name}/console/sign-in`, {
      username: "rev1",
      password: "not the password",
    });
    const unknownUser = await postForm(ctx, `/${tenant.name}/console/sign-in`, {
      username: "nobody",
      password: PASSWORD,
    });
    for (const res of [wrongPassword, unknownUser]) {
      refused(res);
      assert.match(res.body, /<input name="username"/);
    }
    assert.equal(
      wrongPassword.body.replace(/t-[\w-]+/g, ""),
      unknownUser.body.replace(/t-[\w-]+/g, ""),
      "the same page either way",
    );
  });

  it("locks a source out after five failures in a row, and a success clears the count", async () => {
    await createReviewer(tenant, "rev-lock");
    const attempt = (password: string) =>
      postForm(ctx, `/${tenant.name}/console/sign-in`, { username: "rev-lock", password });
    for (let n = 0; n < 4; n++) refused(await attempt("wrong password!"));
    assert.equal((await attempt(PASSWORD)).statusCode, 303, "four failures do not lock");
    for (let n = 0; n < 5; n++) refused(await attempt("wrong password!"));
    const locked = await attempt(PASSWORD); // locked: even the right password is turned away, unchecked
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.headers["set-cookie"], undefined);
    assert.ok(Number(locked.headers["retry-after"]) > 14 * 60, "for 15 minutes");
    assert.match(locked.body, /Too many sign-in attempts\. Try again in 15 minutes\./);
    // the operator can let the user in again with a new password
    await expectStatus(tenant.call("PATCH", "/user/rev-lock", { password: "another long password" }), 200);
    assert.equal((await attempt("another long password")).statusCode, 303);
  });

  it("refuses users without a password, inactive users, and another tenant's users", async () => {
    await expectStatus(tenant.call("POST", "/user/create", { username: "no-password" }), 201);
    const none = await postForm(ctx, `/${tenant.name}/console/sign-in`, {
      username: "no-password",
      password: "",
    });
    refused(none);
    await createReviewer(tenant, "rev-off");
    const { cookie } = await signIn(ctx, tenant, "rev-off");
    await expectStatus(tenant.call("PATCH", "/user/rev-off", { active: false }), 200);
    assert.match(
      (await getPage(ctx, `/${tenant.name}/console/`, cookie)).body,
      /<title>Sign in/,
      "session ended",
    );
    const off = await postForm(ctx, `/${tenant.name}/console/sign-in`, {
      username: "rev-off",
      password: PASSWORD,
    });
    refused(off);

    const other = await ctx.newTenant("lightweight");
    await createReviewer(other, "other-rev");
    const foreign = await postForm(ctx, `/${tenant.name}/console/sign-in`, {
      username: "other-rev",
      password: PASSWORD,
    });
    refused(foreign); // a user signs in only under its own tenant
    const { cookie: otherCookie } = await signIn(ctx, other, "other-rev");
    assert.match((await getPage(ctx, `/${tenant.name}/console/`, otherCookie)).body, /<title>Sign in/);
  });

  it("keeps only a scrypt hash of the password, and validates the user API's fields", async () => {
    const [row] = await ctx.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE tenant_id = $1 AND username = 'rev1'",
      [tenant.id],
    );
    assert.match(row?.password_hash ?? "", /^scrypt\$\d+\$8\$1\$/);
    assert.doesNotMatch(row?.password_hash ?? "", /horse/);
    const short = await tenant.call("POST", "/user/create", { username: "short", password: "too short" });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /password/);
    const missing = await tenant.call("PATCH", "/user/nobody", { name: "X" });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().ErrorCode, "E_USER_NOT_FOUND_404");
  });
});

describe("reviewer console: a held request decided", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  let transactionId: string;
  let session: { cookie: string; csrf: string };
  before(async () => {
    ctx = await startTestApp();
    tenant = await ctx.newTenant("lightweight");
    await createReviewer(tenant, "rev1", "نورة القحطاني");
    await createOutlierMember(tenant, "<script>alert(1)</script>", "FEMALE");
    transactionId = await heldRequest(tenant, { doctor_name: "<img src=x onerror=alert(2)>" });
    session = await signIn(ctx, tenant);
  });
  after(() => ctx.close());

  const requestUrl = () => `/${tenant.name}/console/requests/${transactionId}`;

  it("lists the held request in the queue, with filters and counts", async () => {
    const queue = await getPage(ctx, `/${tenant.name}/console/`, session.cookie);
    assert.match(queue.body, new RegExp(`data-transaction-id="${transactionId}"`));
    assert.match(queue.body, /1 held for review · 0 referred/);
    assert.match(
      queue.body,
      /<bdi dir="auto">نورة القحطاني<\/bdi>/,
      "the reviewer's Arabic name, right to left",
    );
    for (const filter of ["provider=CCHI-404", "status=REFERRED", "member=PEER-1", "from=2026-04-01"]) {
      const filtered = await getPage(ctx, `/${tenant.name}/console/?${filter}`, session.cookie);
      assert.doesNotMatch(filtered.body, /data-transaction-id=/, filter);
    }
    const score = Number(/<td class="num">(\d\.\d\d)<\/td>/.exec(queue.body)?.[1]);
    assert.ok(score > 0.7, "the held item's score is shown");
    const above = await getPage(
      ctx,
      `/${tenant.name}/console/?min_score=${Math.min(1, score + 0.01)}`,
      session.cookie,
    );
    if (score < 1) assert.doesNotMatch(above.body, /data-transaction-id=/);
    const byMember = await getPage(
      ctx,
      `/${tenant.name}/console/?member=OUTLIER-1&status=PENDING`,
      session.cookie,
    );
    assert.match(byMember.body, new RegExp(`data-transaction-id="${transactionId}"`));
  });

  it("shows every item with its decision, amounts, reasons and score evidence, escaping what was sent", async () => {
    const res = await getPage(ctx, requestUrl(), session.cookie);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /data-item-index="0"/);
    assert.match(res.body, /data-item-index="1"/);
    assert.match(res.body, /PENDING_REVIEW/);
    assert.match(res.body, /1,200\.00/, "the held item's requested amount");
    assert.match(res.body, /MZ-AI-/, "the score's evidence");
    assert.match(res.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(res.body, /&lt;img src=x onerror=alert\(2\)&gt;/);
    assert.doesNotMatch(res.body, /<script>alert|<img src=x/);
    for (const action of [
      "accept-request",
      "reject-request",
      "accept-item",
      "reject-item",
      "submit-decision",
    ])
      assert.match(res.body, new RegExp(`data-action="${action}"`));
  });

  it("refuses a write without the session's CSRF token, and changes nothing", async () => {
    const forged = await postForm(
      ctx,
      `${requestUrl()}/decision`,
      { decision: "reject-request" },
      session.cookie,
    );
    assert.equal(forged.statusCode, 403);
    const wrong = await postForm(
      ctx,
      `${requestUrl()}/decision`,
      { decision: "reject-request", csrf: "guess" },
      session.cookie,
    );
    assert.equal(wrong.statusCode, 403);
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.equal(pa.status, "PENDING");
  });

  it("shows the API's refusal on the page and changes nothing", async () => {
    const res = await postForm(
      ctx,
      `${requestUrl()}/decision`,
      {
        csrf: session.csrf,
        decision: "items",
        "items.0.status": "ACCEPTED",
        "items.0.erp_item_id": "L1",
        "items.0.quantity": "1",
        "items.0.amount": "5000",
      },
      session.cookie,
    );
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /class="message error"/);
    const refer = await postForm(
      ctx,
      `${requestUrl()}/refer`,
      { csrf: session.csrf, referral_cchi_code: "" },
      session.cookie,
    );
    assert.equal(refer.statusCode, 422);
    assert.match(refer.body, /referral_cchi_code is required/);
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.equal(pa.status, "PENDING");
  });

  it("records the reviewer's item decisions through the same service, as the signed-in user", async () => {
    const res = await postForm(
      ctx,
      `${requestUrl()}/decision`,
      {
        csrf: session.csrf,
        decision: "items",
        "items.0.status": "ACCEPTED",
        "items.0.erp_item_id": "L1",
        "items.0.quantity": "1",
        "items.0.amount": "300",
        "items.0.reason": "NDC079",
        "items.1.status": "REJECTED",
        "items.1.erp_item_id": "C1",
        "items.1.reason": "NDC003",
        remarks: "Capped at the usual price",
      },
      session.cookie,
    );
    assert.equal(res.statusCode, 303, res.body);
    assert.match(String(res.headers.location), /done=decided-PARTIALLY_ACCEPTED$/);
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.equal(pa.status, "PARTIALLY_ACCEPTED");
    assert.equal(pa.reviewer_erp_id, "rev1");
    assert.equal(pa.approval_remarks, "Capped at the usual price");
    assert.deepEqual(
      pa.items.map((item: { reviewer_status: string; approved_amount: number }) => [
        item.reviewer_status,
        item.approved_amount,
      ]),
      [
        ["ACCEPTED", 300],
        ["REJECTED", 0],
      ],
    );
    const events = await listEvents(ctx.db, tenant.id, "PRE_AUTH_RESULT");
    const last = events.filter((event) => event.data.transaction_id === transactionId).at(-1);
    assert.equal(last?.data.source, "REVIEWER");
    assert.equal(last?.data.reviewer_erp_id, "rev1");
    const history = pa.history.at(-1);
    assert.equal(history.actor, "console:rev1");
    const page = await getPage(ctx, `${requestUrl()}?done=decided-PARTIALLY_ACCEPTED`, session.cookie);
    assert.match(page.body, /class="message" role="status">Decision recorded: PARTIALLY_ACCEPTED/);
  });

  it("reopens, adds a communication, refers, accepts and cancels through the console", async () => {
    const post = (path: string, fields: Record<string, string> = {}) =>
      postForm(ctx, `${requestUrl()}/${path}`, { csrf: session.csrf, ...fields }, session.cookie);
    const status = async () =>
      (await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200)).status;
    assert.equal((await post("reopen", { reason: "CORRECTION" })).statusCode, 303);
    assert.equal(await status(), "PENDING");
    assert.equal(
      (await post("communication", { title: "Invoice", content: "Attached the invoice" })).statusCode,
      303,
    );
    assert.equal((await post("refer", { referral_cchi_code: "CCHI-9", valid_days: "10" })).statusCode, 303);
    assert.equal(await status(), "REFERRED");
    assert.equal((await post("decision", { decision: "accept-request" })).statusCode, 303);
    assert.equal(await status(), "ACCEPTED");
    assert.equal((await post("cancel")).statusCode, 303);
    assert.equal(await status(), "CANCELLED");
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.deepEqual(
      pa.history.map((entry: { action: string }) => entry.action),
      ["create", "update", "reopen", "communication", "update", "update", "cancel"],
    );
    assert.equal(pa.communications[0].title, "Invoice");
  });

  it("offers and records every reopen reason of the API, CANCEL too", async () => {
    const another = await heldRequest(tenant);
    const url = `/${tenant.name}/console/requests/${another}`;
    const post = (path: string, fields: Record<string, string> = {}) =>
      postForm(ctx, `${url}/${path}`, { csrf: session.csrf, ...fields }, session.cookie);
    assert.equal((await post("decision", { decision: "reject-request" })).statusCode, 303);
    const page = await getPage(ctx, url, session.cookie);
    const offered = [
      ...(/<select name="reason">([\s\S]*?)<\/select>/.exec(page.body)?.[1] ?? "").matchAll(
        /<option>(\w+)<\/option>/g,
      ),
    ].map((match) => match[1]);
    assert.deepEqual(offered, [...REOPEN_REASONS]);
    assert.ok(offered.includes("CANCEL"));
    assert.equal((await post("reopen", { reason: "CANCEL" })).statusCode, 303);
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${another}`), 200);
    assert.deepEqual([pa.status, pa.nphies_reopen_reason], ["PENDING", "CANCEL"]);
  });
});
