import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { batchBody, batchClaim, tokenFor, uploadBatch, waitForBatch } from "../claims-batch/fixtures.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import { createOutlierMember, createReviewer, heldRequest, PASSWORD } from "./fixtures.js";

/** Debian's chromium (.ci/run installs it); MIZAN_CHROMIUM names another */
const CHROMIUM = process.env.MIZAN_CHROMIUM ?? "/usr/bin/chromium";
/** MIZAN_SCREENSHOTS=<dir> keeps a screenshot of each page the test visits (the README's come from here) */
const SCREENSHOTS = process.env.MIZAN_SCREENSHOTS;
const skip = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM}: install Debian's chromium to run the browser tests`;

describe("reviewer console in a real browser", { skip }, () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  let browser: Browser;
  let base: string;
  let transactionId: string;
  const violations: string[] = [];

  before(async () => {
    ctx = await startTestApp();
    tenant = await ctx.newTenant("lightweight");
    await createReviewer(tenant, "rev1", "Noura Al-Qahtani");
    await createOutlierMember(tenant, "عبدالله <script>alert(1)</script>", "MALE");
    transactionId = await heldRequest(tenant);
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/${tenant.name}/console`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await ctx.close();
  });

  async function newPage(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("dialog", (dialog) => dialog.accept());
    return page;
  }

  const shot = (page: Page, name: string) =>
    SCREENSHOTS ? page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }) : undefined;

  async function signIn(page: Page, username: string, password: string) {
    await page.goto(`${base}/`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', password);
    await Promise.all([page.waitForLoadState("load"), page.click('button[type="submit"]')]);
  }

  it("refuses a wrong password and another tenant's user, with the same message", async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await shot(page, "sign-in");
    await signIn(page, "rev1", "not the password");
    assert.match((await page.textContent('[role="alert"]')) ?? "", /username or password is not right/);
    const other = await ctx.newTenant("lightweight");
    await createReviewer(other, "other-rev");
    await signIn(page, "other-rev", PASSWORD);
    assert.match((await page.textContent('[role="alert"]')) ?? "", /username or password is not right/);
    assert.equal(await page.locator('[data-action="sign-out"]').count(), 0);
    await page.close();
  });

  it("signs in, works a held request to a decision, and the API shows it", async () => {
    const page = await newPage();
    await signIn(page, "rev1", PASSWORD);
    const row = page.locator(`[data-transaction-id="${transactionId}"]`);
    assert.equal(await row.count(), 1);
    await shot(page, "queue");
    await Promise.all([page.waitForURL(/\/requests\//), row.locator("a").click()]);
    // the member's name, sent with markup, shows as text
    assert.match((await page.textContent("main")) ?? "", /عبدالله <script>alert\(1\)<\/script>/);
    await shot(page, "request");
    const held = page.locator('[data-item-index="0"]');
    await held.locator('[data-action="accept-item"]').check();
    await held.locator('input[name="items.0.amount"]').fill("300");
    await held.locator('select[name="items.0.reason"]').selectOption("NDC079");
    await page.locator('[data-item-index="1"] [data-action="reject-item"]').check();
    await page.locator('select[name="items.1.reason"]').selectOption("NDC003");
    await Promise.all([page.waitForURL(/done=/), page.click('[data-action="submit-decision"]')]);
    assert.match((await page.textContent('[role="status"]')) ?? "", /Decision recorded: PARTIALLY_ACCEPTED/);
    await shot(page, "request-decided");

    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.equal(pa.status, "PARTIALLY_ACCEPTED");
    assert.equal(pa.reviewer_erp_id, "rev1");
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
    await Promise.all([page.waitForURL(/\/console\/$/), page.click('[data-action="sign-out"]')]);
    assert.equal(await page.locator('input[name="password"]').count(), 1, "signed out");
    await page.close();
  });

  it("asks the provider for information from a request's page, and the API shows it", async () => {
    const page = await newPage();
    await signIn(page, "rev1", PASSWORD);
    await page.goto(`${base}/requests/${encodeURIComponent(transactionId)}`);
    await page.fill(
      'form[action$="/information-request"] textarea[name="content"]',
      "Please send the lab report for the HbA1c test",
    );
    await Promise.all([page.waitForURL(/done=/), page.click('[data-action="request-information"]')]);
    assert.match(
      (await page.textContent('[role="status"]')) ?? "",
      /Information requested from the provider/,
    );
    assert.match((await page.textContent("main")) ?? "", /Please send the lab report for the HbA1c test/);
    await shot(page, "request-information");
    const pa = await expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);
    assert.deepEqual(
      pa.communication_requests.map((asked: { reviewer: string; content: string }) => [
        asked.reviewer,
        asked.content,
      ]),
      [["rev1", "Please send the lab report for the HbA1c test"]],
    );
    await page.close();
  });

  it("shows a completed batch's charts and provider ranking", async () => {
    const token = await tokenFor(ctx.app, tenant);
    const claims = Array.from({ length: 40 }, (_, n) =>
      batchClaim(
        n,
        n % 10 === 0 ? { claim_items: [{ ...batchClaim(n).claim_items[0], claimed_amount: 9_000 }] } : {},
      ),
    );
    const uploaded = await uploadBatch(ctx.app, token, batchBody(claims));
    assert.equal(uploaded.statusCode, 202, uploaded.body);
    const batchId = uploaded.json().batch_id;
    assert.equal((await waitForBatch(ctx.app, token, batchId)).status, "completed");
    const page = await newPage();
    await signIn(page, "rev1", PASSWORD);
    await Promise.all([page.waitForURL(/\/batches$/), page.click('a[href$="/console/batches"]')]);
    await Promise.all([page.waitForURL(new RegExp(batchId)), page.click(`[data-batch-id="${batchId}"] a`)]);
    assert.ok((await page.locator("svg.chart").count()) >= 2, "the status chart and the score histogram");
    await shot(page, "batch");
    await page.close();
  });

  it("loads no inline code: the browser reports no Content-Security-Policy violation", () => {
    assert.deepEqual(violations, []);
  });
});
