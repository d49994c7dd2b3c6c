import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext } from "../../helpers.js";
import { rawPost } from "./raw-http.js";

const CHUNK = Buffer.alloc(64 * 1024, 0x20);
/** 50 MB of JSON whitespace: fifty times the tenant API's body limit */
const FIFTY_MB = { chunk: CHUNK, chunks: 763 };

describe("an oversized body, over a real socket, from a client that sends it all before reading", () => {
  let ctx: TestContext;
  let base: string;
  before(async () => {
    ctx = await startTestApp();
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  after(() => ctx.close());

  const networkCreate = () => `${base}/${ctx.tenant.name}/v4.0/health/network/create`;

  it("reads a 413 in the spec's shape every time, with a Content-Length or chunked, not a reset", async () => {
    for (const chunked of [false, true])
      for (let n = 0; n < 5; n++) {
        const answer = await rawPost(
          networkCreate(),
          { "access-key": ctx.tenant.apiKey, "content-type": "application/json" },
          { ...FIFTY_MB, chunked },
        );
        assert.equal(answer.status, 413, `${chunked ? "chunked" : "Content-Length"} #${n}: ${answer.body}`);
        assert.deepEqual(JSON.parse(answer.body), {
          ErrorCode: "E_PAYLOAD_TOO_LARGE_413",
          message: "Request body is too large",
          details: ["Request body is too large"],
        });
      }
  });

  it("reads the 401 of a wrong access-key sent with a large body", async () => {
    const answer = await rawPost(
      networkCreate(),
      { "access-key": "not-the-key-0123456789", "content-type": "application/json" },
      FIFTY_MB,
    );
    assert.equal(answer.status, 401, answer.body);
    assert.equal(JSON.parse(answer.body).message, "Unauthorized");
  });

  it("keeps serving afterwards", async () => {
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    const created = await fetch(networkCreate(), {
      method: "POST",
      headers: { "access-key": ctx.tenant.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ name: "after-the-flood" }),
    });
    assert.equal(created.status, 201, await created.text());
  });
});
