import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import {
  type BatchStatus,
  createMizanClient,
  MizanApiError,
  MizanAuthError,
  type StoredToken,
} from "@mizan/client";
import type { TenantClient, TestContext } from "../../helpers.js";
import { batchBody, batchClaim } from "../../modules/claims-batch/fixtures.js";
import { recordingFetch, serveTestApp } from "./served.js";

// enough claims that even compressed the body leaves in more than one chunk (gzip writes 16 KiB at a time)
const CLAIMS = 1000;
const PER_PAGE = 300;

describe("@mizan/client: the batch claims service", () => {
  const dir = mkdtempSync(join(tmpdir(), "mizan-client-batch-"));
  let ctx: TestContext;
  let baseUrl: string;
  let tenant: TenantClient;
  before(async () => {
    ({ ctx, baseUrl } = await serveTestApp());
    tenant = ctx.tenant;
  });
  after(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const clientOf = (options: Partial<Parameters<typeof createMizanClient>[0]> = {}) =>
    createMizanClient({ baseUrl, clientId: tenant.clientId, clientSecret: tenant.clientSecret, ...options });

  it("uploads a file gzip-compressed on the way, reports progress, waits, and pages through every claim", async () => {
    const file = join(dir, "batch.json");
    writeFileSync(file, JSON.stringify(batchBody(Array.from({ length: CLAIMS }, (_, n) => batchClaim(n)))));
    const { fetch, seen } = recordingFetch();
    const mizan = clientOf({ fetch });
    const progress: [number, number | undefined][] = [];
    const accepted = await mizan.uploadBatch(file, {
      gzip: true,
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    assert.equal(accepted.total_claims, CLAIMS);
    assert.equal(accepted.status, "queued");
    assert.ok(progress.length >= 2, `progress as the body went, not once at the end: ${progress.length}`);
    for (let i = 1; i < progress.length; i++)
      assert.ok((progress[i]?.[0] ?? 0) > (progress[i - 1]?.[0] ?? 0), "sent bytes only grow");
    assert.equal(progress.at(-1)?.[1], undefined, "compressing on the way: the total is not known ahead");

    const statuses: BatchStatus[] = [];
    const done = await mizan.waitForBatch(accepted.batch_id, {
      intervalMs: 100,
      onProgress: (status) => statuses.push(status),
    });
    assert.equal(done.status, "completed");
    assert.equal(statuses.at(-1)?.status, "completed");

    const ids: string[] = [];
    for await (const claim of mizan.results(accepted.batch_id, { perPage: PER_PAGE }))
      ids.push(claim.claim_id);
    assert.equal(ids.length, CLAIMS, "every claim of every page");
    assert.equal(new Set(ids).size, CLAIMS);
    const resultPages = seen.filter((request) => request.path.endsWith("/results"));
    assert.equal(resultPages.length, Math.ceil(CLAIMS / PER_PAGE));

    let byStatus = 0;
    for (const filter of ["approved", "flagged", "rejected"] as const)
      for await (const claim of mizan.results(accepted.batch_id, { filter })) {
        assert.equal(claim.status, filter);
        byStatus++;
      }
    assert.equal(byStatus, CLAIMS);

    const providers = [];
    for await (const provider of mizan.providers(accepted.batch_id, { perPage: 2 })) providers.push(provider);
    assert.deepEqual(providers.map((p) => p.provider_id).sort(), ["P-0", "P-1", "P-2"]);
    let members = 0;
    for await (const _member of mizan.members(accepted.batch_id)) members++;
    assert.equal(members, CLAIMS);

    const tokenRequests = seen.filter((request) => request.path === "/v1/auth/token");
    assert.equal(tokenRequests.length, 1, "one token for every call");
    assert.ok(seen.every((request) => /^[0-9a-f-]{36}$/.test(request.requestId ?? "")));
    assert.equal(new Set(seen.map((request) => request.requestId)).size, seen.length, "one id per call");
  });

  it("uploads a file as it is with its size known, a batch object, a gzip file and a Node stream", async () => {
    const mizan = clientOf();
    const file = join(dir, "plain.json");
    writeFileSync(file, JSON.stringify(batchBody(Array.from({ length: 300 }, (_, n) => batchClaim(n)))));
    const plain: [number, number | undefined][] = [];
    await mizan.uploadBatch(file, { onProgress: (sent, total) => plain.push([sent, total]) });
    assert.ok(plain.length > 1);
    assert.ok(plain.every(([, total]) => total === statSync(file).size));
    assert.equal(plain.at(-1)?.[0], statSync(file).size);

    const progress: [number, number | undefined][] = [];
    const fromObject = await mizan.uploadBatch(batchBody([batchClaim(1), batchClaim(2)]), {
      gzip: true,
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    assert.equal(fromObject.total_claims, 2);
    const [sent, total] = progress.at(-1) ?? [];
    assert.ok(
      total !== undefined && sent === total,
      "an object's compressed size is known before it is sent",
    );

    const gzFile = join(dir, "batch.json.gz");
    writeFileSync(gzFile, gzipSync(JSON.stringify(batchBody([batchClaim(3)]))));
    assert.equal((await mizan.uploadBatch(gzFile)).total_claims, 1, "a .gz path is sent as gzip");

    const stream = Readable.from([JSON.stringify(batchBody([batchClaim(4), batchClaim(5), batchClaim(6)]))]);
    const fromStream = await mizan.uploadBatch(stream, { gzip: true, requestId: "stream-upload-1" });
    assert.equal(fromStream.total_claims, 3);
  });

  it("streams the body: the source is read only as fetch takes it (an endless source would never end otherwise)", async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced++;
        this.push(Buffer.alloc(64 * 1024, 0x20));
      },
    });
    let producedAfterTwoReads = 0;
    const mizan = createMizanClient({
      baseUrl: "http://mizan.invalid",
      clientId: "id",
      clientSecret: "secret",
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.url.endsWith("/v1/auth/token"))
          return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600, scope: "" });
        const reader = (request.body as ReadableStream<Uint8Array>).getReader();
        await reader.read();
        await reader.read();
        producedAfterTwoReads = produced;
        await reader.cancel();
        return Response.json({ batch_id: "b", total_claims: 0 }, { status: 202 });
      },
    });
    await mizan.uploadBatch(endless);
    assert.ok(producedAfterTwoReads <= 4, `read ahead of the upload: ${producedAfterTwoReads} chunks`);
    assert.ok(endless.destroyed, "the source is closed when the upload stops reading it");
  });

  it("raises the service's refusal with its problems", async () => {
    const refused = await clientOf()
      .uploadBatch(batchBody([batchClaim(1, { claim_date: "03/10/2026" })]))
      .catch((error: unknown) => error);
    assert.ok(refused instanceof MizanApiError);
    assert.equal(refused.status, 400);
    const body = refused.body as { error: { code: string; details: { field: string }[] } };
    assert.equal(body.error.code, "VALIDATION_ERROR");
    assert.equal(body.error.details[0]?.field, "claims[0].claim_date");
    assert.match(refused.message, /validation error/);
  });

  it("keeps the token in the store it is given, and renews a token the service refuses, once", async () => {
    const saved: StoredToken[] = [];
    const { fetch, seen } = recordingFetch();
    // a token the store says is good for an hour, that the service never issued
    const mizan = clientOf({
      fetch,
      tokenStore: {
        load: () => ({ access_token: "revoked-or-garbage", expires_at: Date.now() + 3_600_000 }),
        save: (token) => {
          saved.push(token);
        },
      },
    });
    const accepted = await mizan.uploadBatch(batchBody([batchClaim(1)]));
    await mizan.waitForBatch(accepted.batch_id, { intervalMs: 100 });
    await mizan.waitForBatch(accepted.batch_id, { intervalMs: 100 });
    const calls = seen.map((request) => `${request.method} ${request.path} ${request.authorization ?? ""}`);
    assert.deepEqual(calls.slice(0, 3), [
      "POST /v1/claims/batch/upload Bearer revoked-or-garbage",
      "POST /v1/auth/token ",
      `POST /v1/claims/batch/upload Bearer ${saved[0]?.access_token}`,
    ]);
    assert.equal(seen[0]?.requestId, seen[2]?.requestId, "the retried upload keeps its request id");
    assert.equal(saved.length, 1, "renewed once, then kept");
    assert.equal(calls.filter((call) => call.startsWith("POST /v1/auth/token")).length, 1);
    assert.ok((saved[0]?.expires_at ?? 0) - Date.now() > 3_500_000, "kept with its expiry");
  });

  it("asks for a new token a minute before the kept one expires, and shares one request among concurrent calls", async () => {
    const { fetch, seen } = recordingFetch();
    const mizan = clientOf({
      fetch,
      tokenStore: {
        load: () => ({ access_token: "almost-expired", expires_at: Date.now() + 59_000 }),
        save() {},
      },
    });
    const accepted = await mizan.uploadBatch(batchBody([batchClaim(1)]));
    await Promise.all(
      Array.from({ length: 5 }, () =>
        mizan.batch.GET("/v1/claims/batch/{batch_id}", { params: { path: { batch_id: accepted.batch_id } } }),
      ),
    );
    assert.ok(seen.every((request) => request.authorization !== "Bearer almost-expired"));
    assert.equal(seen.filter((request) => request.path === "/v1/auth/token").length, 1);
  });

  it("raises MizanAuthError when the client credentials are wrong", async () => {
    const refused = await clientOf({ clientSecret: "not-the-secret-0123456789" })
      .uploadBatch(batchBody([batchClaim(1)]))
      .catch((error: unknown) => error);
    assert.ok(refused instanceof MizanAuthError);
    assert.equal(refused.status, 401);
    assert.match(refused.message, /^the token service refused the client: /);
  });
});
