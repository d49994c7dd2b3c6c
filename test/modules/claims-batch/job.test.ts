import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import { generateBatch } from "../../../synthetic/index.js";
import { TEST_DATABASE_URL, uniqueName } from "../../helpers.js";
import { freePort, serve } from "../../processes.js";

describe("a batch across a killed worker", () => {
  const dir = mkdtempSync(join(tmpdir(), "mizan-batch-crash-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("is analysed again by the restarted service, and completes once", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const clientId = `mzc_${uniqueName("crash").replace(/-/g, "")}`;
    const env = {
      MIZAN_DATA_DIR: join(dir, "data"),
      MIZAN_TENANT: uniqueName("crash"),
      MIZAN_CLIENT_ID: clientId,
      MIZAN_CLIENT_SECRET: "crash-client-secret-0123456789",
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    };
    const chunks: Buffer[] = [];
    for await (const chunk of generateBatch({ claims: 60_000, seed: 3, reference: uniqueName("crash") }))
      chunks.push(chunk);
    const gzipped = gzipSync(Buffer.concat(chunks), { level: 1 });
    const token = async () =>
      (
        (await (
          await fetch(`${origin}/v1/auth/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "client_credentials",
              client_id: clientId,
              client_secret: env.MIZAN_CLIENT_SECRET,
            }),
          })
        ).json()) as { access_token: string }
      ).access_token;
    const status = async (bearer: string, batchId: string) =>
      (await (
        await fetch(`${origin}/v1/claims/batch/${batchId}`, {
          headers: { authorization: `Bearer ${bearer}` },
        })
      ).json()) as {
        status: string;
        processing_progress: number;
        processed_claims: number;
        summary: { approved: number; flagged: number; rejected: number } | null;
      };

    const first = await serve(env, port);
    let batchId: string;
    try {
      const bearer = await token();
      const accepted = await fetch(`${origin}/v1/claims/batch/upload`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${bearer}`,
          "content-type": "application/json",
          "content-encoding": "gzip",
        },
        body: gzipped,
      });
      assert.equal(accepted.status, 202, await accepted.clone().text());
      batchId = ((await accepted.json()) as { batch_id: string }).batch_id;
      // killed once the analysis is under way
      const deadline = Date.now() + 60_000;
      for (;;) {
        const now = await status(bearer, batchId);
        if (now.status === "processing" && now.processing_progress >= 10) break;
        assert.notEqual(now.status, "completed", "the batch finished before the worker could be killed");
        if (Date.now() > deadline) throw new Error(`the batch did not start: ${JSON.stringify(now)}`);
        await sleep(50);
      }
    } finally {
      first.child.kill("SIGKILL");
      await first.exited;
    }

    const second = await serve(env, port);
    try {
      const bearer = await token();
      const deadline = Date.now() + 120_000;
      let now = await status(bearer, batchId);
      while (now.status !== "completed" && now.status !== "failed" && Date.now() < deadline) {
        await sleep(250);
        now = await status(bearer, batchId);
      }
      assert.equal(now.status, "completed", JSON.stringify(now));
      assert.equal(now.processed_claims, 60_000);
      const summary = now.summary ?? { approved: 0, flagged: 0, rejected: 0 };
      assert.equal(summary.approved + summary.flagged + summary.rejected, 60_000);
      const results = await fetch(`${origin}/v1/claims/batch/${batchId}/results?page=60&per_page=1000`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      const body = (await results.json()) as { claims: unknown[]; meta: { total_results: number } };
      assert.deepEqual([body.claims.length, body.meta.total_results], [1_000, 60_000]);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });
});
