import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  createMizanClient,
  MizanApiError,
  type MizanClientOptions,
  MizanNetworkError,
  retryAfterMs,
  unwrap,
} from "@mizan/client";
import type { TenantClient, TestContext } from "../../helpers.js";
import { batchBody, batchClaim } from "../../modules/claims-batch/fixtures.js";
import { freePort } from "../../processes.js";
import { type Refusal, recordingFetch, type Seen, serveTestApp, startProxy } from "./served.js";

describe("@mizan/client: retries", () => {
  const dir = mkdtempSync(join(tmpdir(), "mizan-client-retry-"));
  let ctx: TestContext;
  let tenant: TenantClient;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  /** what the proxy answers next for the requests it is asked about, first to last; then it lets them through */
  let plan: { match: (method: string, path: string) => boolean; answers: Refusal[] };
  beforeEach(() => {
    plan = { match: () => false, answers: [] };
  });
  before(async () => {
    const served = await serveTestApp();
    ctx = served.ctx;
    tenant = await ctx.newTenant("lightweight");
    proxy = await startProxy(served.baseUrl, (request) =>
      plan.match(request.method ?? "", request.url ?? "") ? plan.answers.shift() : undefined,
    );
  });
  after(async () => {
    await proxy.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const clientOf = (options: Partial<MizanClientOptions> = {}) =>
    createMizanClient({
      baseUrl: proxy.url,
      tenant: tenant.name,
      apiKey: tenant.apiKey,
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      retry: { attempts: 4, maxDelayMs: 5_000, baseDelayMs: 50 },
      ...options,
    });
  /** the requests the proxy saw for `path`, from `from` on */
  const seenFor = (path: string, from: number): Seen[] =>
    proxy.seen.slice(from).filter((request) => request.path.startsWith(path));
  const gaps = (seen: Seen[]) => seen.slice(1).map((request, i) => request.at - (seen[i]?.at ?? 0));

  it("waits the seconds a 503's Retry-After names, and sends the same request id each time", async () => {
    const path = `/${tenant.name}/v4.0/health/webhook/list`;
    plan = {
      match: (method, url) => method === "GET" && url === path,
      answers: [
        { status: 503, headers: { "retry-after": "1" } },
        { status: 503, headers: { "retry-after": "1" } },
      ],
    };
    const from = proxy.seen.length;
    const list = await unwrap(clientOf().tenant.GET("/v4.0/health/webhook/list"));
    assert.ok(Array.isArray(list.data));
    const seen = seenFor(path, from);
    assert.equal(seen.length, 3);
    for (const gap of gaps(seen)) assert.ok(gap >= 990, `waited ${gap} ms of the 1000 asked`);
    assert.equal(new Set(seen.map((request) => request.requestId)).size, 1);
  });

  it("honours a Retry-After date on a 429, and the retried POST is taken once", async () => {
    const path = `/${tenant.name}/v4.0/health/approval-request/create`;
    const retryAt = new Date(Date.now() + 2_000);
    plan = {
      match: (method, url) => method === "POST" && url === path,
      answers: [{ status: 429, headers: { "retry-after": retryAt.toUTCString() } }],
    };
    const from = proxy.seen.length;
    const transactionId = `TX-RETRY-${randomUUID().slice(0, 8)}`;
    const created = await unwrap(
      clientOf().tenant.POST("/v4.0/health/approval-request/create", {
        body: {
          authorization_number: "AUTH-RETRY",
          transaction_id: transactionId,
          policy_no: "POL-R",
          ph_erp_id: "PH-R",
          medical_provider_cchi_no: "CCHI-R",
          member_id: "M-R",
          member_dob: "1990-05-01T00:00:00.000Z",
          member_gender: "FEMALE",
          marital_status: "SINGLE",
          treatment_date: "2026-03-10T09:00:00.000Z",
          request_date: "2026-03-10T08:00:00.000Z",
          claim_type: "PROFESSIONAL",
          claim_sub_type: "OUT_PATIENT",
          diagnoses: [{ type: "primary", code: "J06.9" }],
          items: [
            {
              service_code: "LAB-1",
              service_description: "Panel",
              nphies_code: "80053",
              nphies_type: "AMBULATORY",
              service_type: "AMBULATORY",
              claimed_quantity: 1,
              claimed_amount: 100,
            },
          ],
        },
      }),
    );
    assert.equal(created.transaction_id, transactionId);
    const seen = seenFor(path, from);
    assert.equal(seen.length, 2);
    // an HTTP date counts whole seconds: the wait is what is left of them
    assert.ok((seen[1]?.at ?? 0) >= Math.floor(retryAt.getTime() / 1000) * 1000 - 10, "not before the date");
    assert.equal(seen[0]?.requestId, seen[1]?.requestId);
  });

  it("backs off exponentially without Retry-After, and stops after the attempts allowed", async () => {
    const path = `/${tenant.name}/v4.0/health/webhook/list`;
    plan = { match: (_method, url) => url === path, answers: Array(10).fill({ status: 503 }) };
    const from = proxy.seen.length;
    const failed = await unwrap(clientOf().tenant.GET("/v4.0/health/webhook/list")).catch(
      (error: unknown) => error,
    );
    assert.ok(failed instanceof MizanApiError);
    assert.equal(failed.status, 503);
    const seen = seenFor(path, from);
    assert.equal(seen.length, 4, "four attempts in all");
    assert.equal(failed.requestId, seen[0]?.requestId, "the error names the request id that was sent");
    // equal jitter: at least half of 50, 100, 200 ms
    gaps(seen).forEach((gap, i) => {
      assert.ok(gap >= 25 * 2 ** i - 5, `wait ${i + 1} was ${gap} ms`);
    });
  });

  it("hands back at once a Retry-After longer than the longest wait allowed", async () => {
    const path = `/${tenant.name}/v4.0/health/webhook/list`;
    plan = {
      match: (_method, url) => url === path,
      answers: [{ status: 429, headers: { "retry-after": "120" } }],
    };
    const from = proxy.seen.length;
    const started = Date.now();
    const refused = await unwrap(clientOf().tenant.GET("/v4.0/health/webhook/list")).catch(
      (error: unknown) => error,
    );
    assert.ok(refused instanceof MizanApiError);
    assert.equal(refused.status, 429);
    assert.equal(seenFor(path, from).length, 1);
    assert.ok(Date.now() - started < 1_000);
  });

  it("sends an upload from a file again after a 503, but never a caller's stream", async () => {
    const file = join(dir, "batch.json");
    writeFileSync(file, JSON.stringify(batchBody(Array.from({ length: 50 }, (_, n) => batchClaim(n)))));
    plan = {
      match: (method, url) => method === "POST" && url === "/v1/claims/batch/upload",
      answers: [{ status: 503, headers: { "retry-after": "0" } }],
    };
    const from = proxy.seen.length;
    const mizan = clientOf();
    const accepted = await mizan.uploadBatch(file, { gzip: true });
    assert.equal(accepted.total_claims, 50);
    assert.equal(seenFor("/v1/claims/batch/upload", from).length, 2);

    plan.answers = [{ status: 503 }];
    const stream = Readable.from([JSON.stringify(batchBody([batchClaim(1)]))]);
    const refused = await mizan.uploadBatch(stream).catch((error: unknown) => error);
    assert.ok(refused instanceof MizanApiError);
    assert.equal(refused.status, 503);
    assert.equal(seenFor("/v1/claims/batch/upload", from).length, 3, "the stream was read once, sent once");
  });

  it("retries a network error for a GET, not for a POST", async () => {
    const { fetch, seen } = recordingFetch();
    const mizan = createMizanClient({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      tenant: "nobody",
      apiKey: "k",
      fetch,
      retry: { attempts: 3, baseDelayMs: 10 },
    });
    const lost = await mizan.tenant.GET("/v4.0/health/webhook/list").catch((error: unknown) => error);
    assert.ok(lost instanceof MizanNetworkError);
    assert.match(lost.message, /ECONNREFUSED/);
    assert.equal(seen.length, 3);
    assert.equal(lost.requestId, seen[0]?.requestId);
    await assert.rejects(
      mizan.tenant.POST("/v4.0/health/network/create", { body: { name: "N" } }),
      MizanNetworkError,
    );
    assert.equal(seen.length, 4, "a POST whose answer was lost may have been taken: not sent again");
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-03-10T09:00:00.000Z");
    assert.equal(retryAfterMs("3", now), 3_000);
    assert.equal(retryAfterMs("0", now), 0);
    assert.equal(retryAfterMs("Tue, 10 Mar 2026 09:00:05 GMT", now), 5_000);
    assert.equal(retryAfterMs("Tue, 10 Mar 2026 08:59:00 GMT", now), 0, "a date passed: at once");
    assert.equal(retryAfterMs("soon", now), undefined);
    assert.equal(retryAfterMs(null, now), undefined);
  });
});
