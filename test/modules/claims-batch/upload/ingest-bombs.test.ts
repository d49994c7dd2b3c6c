import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { startTestApp, type TestContext } from "../../../helpers.js";
import { batchBody, batchClaim, tokenFor } from "../fixtures.js";

const MIB = 1024 ** 2;

/**
 * About 10 MB of gzip that inflates to 10 GiB of valid JSON: the opening of a batch, then 1,024 gzip
 * members of 10 MiB of spaces each (gunzip reads concatenated members as one stream).
 */
function gzipBomb(): Buffer {
  const spaces = gzipSync(Buffer.alloc(10 * MIB, 0x20), { level: 9 });
  return Buffer.concat([gzipSync('{"claims": ['), ...Array.from({ length: 1024 }, () => spaces)]);
}

describe("gzip bombs, over real HTTP", () => {
  let ctx: TestContext;
  let base: string;
  let token: string;
  before(async () => {
    ctx = await startTestApp();
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    token = await tokenFor(ctx.app, ctx.tenant);
  });
  after(() => ctx.close());

  const upload = (body: Buffer) =>
    fetch(`${base}/v1/claims/batch/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
      body,
    });

  it("answers 413 to 10 MB that inflate to 10 GiB within 5 s, its memory flat, the connection answered", async (t) => {
    const bomb = gzipBomb();
    assert.ok(bomb.length > 9 * MIB && bomb.length < 12 * MIB, `${bomb.length} bytes`);
    const rssBefore = process.memoryUsage().rss;
    const started = Date.now();
    const res = await upload(bomb);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(res.status, 413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, "PAYLOAD_TOO_LARGE");
    assert.match(body.error.message, /MIZAN_BATCH_MAX_INFLATE_RATIO/);
    t.diagnostic(`answered in ${seconds} s`);
    assert.ok(seconds < 5, `answered in ${seconds} s`);
    const grownMb = (process.memoryUsage().rss - rssBefore) / MIB;
    assert.ok(grownMb < 200, `the process grew by ${grownMb.toFixed(0)} MB`);
  });

  it("still accepts a real batch compressed about 10:1 after it", async () => {
    const claims = Array.from({ length: 500 }, (_, n) => batchClaim(n));
    const json = JSON.stringify(batchBody(claims, { batch_reference_id: "after-the-bomb" }));
    const res = await upload(gzipSync(json));
    assert.equal(res.status, 202, await res.clone().text());
    assert.equal(((await res.json()) as { total_claims: number }).total_claims, 500);
  });
});
