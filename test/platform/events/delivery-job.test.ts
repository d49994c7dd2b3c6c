import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { TEST_DATABASE_URL, uniqueName } from "../../helpers.js";
import { freePort, serve } from "../../processes.js";
import { signedWith, startReceiver } from "./webhook-receiver.js";

describe("webhook delivery across a crash", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-webhook-crash-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("delivers an event whose worker was killed mid-delivery, once the service is back", async () => {
    // the first request never gets an answer: the process is killed while it waits for one
    const receiver = await startReceiver((n) => (n === 0 ? "hang" : 200));
    const tenant = uniqueName("crash");
    const apiKey = `key-${uniqueName()}-0123456789`;
    const secret = "crash-test-secret";
    const env = {
      MIZAN_DATA_DIR: dataDir,
      MIZAN_TENANT: tenant,
      MIZAN_API_KEY: apiKey,
      // long enough that the killed attempt cannot have timed out on its own
      MIZAN_WEBHOOK_TIMEOUT_MS: "60000",
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/${tenant}/v4.0/health`;
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          "access-key": apiKey,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    try {
      const first = await serve(env, port);
      let eventId: string;
      let webhookId: number;
      try {
        const created = await call("POST", "/webhook/create", {
          webhook_url: receiver.url,
          hook_type: "POLICY",
          secret_token: secret,
        });
        assert.equal(created.status, 201);
        webhookId = ((await created.json()) as { id: number }).id;
        const sent = await call("POST", `/webhook/${webhookId}/test`);
        assert.equal(sent.status, 202);
        eventId = ((await sent.json()) as { event_id: string }).event_id;
        await receiver.waitFor(1);
      } finally {
        first.child.kill("SIGKILL");
        await first.exited;
      }

      const second = await serve(env, port);
      try {
        // the dead worker's claim lapses after its 10 s heartbeat; the job then runs again
        const [killed, delivered] = await receiver.waitFor(2, 60_000);
        assert.ok(killed && delivered);
        assert.equal(killed.headers["webhook-id"], eventId);
        assert.equal(delivered.headers["webhook-id"], eventId, "the retry carries the same id");
        assert.equal(delivered.body, killed.body);
        assert.ok(signedWith(secret, delivered));

        let delivery: { status: string; attempts: { status_code: number | null; error: string | null }[] };
        const deadline = Date.now() + 10_000;
        do {
          const res = await call("GET", `/webhook/${webhookId}/deliveries`);
          delivery = ((await res.json()) as { data: (typeof delivery)[] }).data[0] as typeof delivery;
        } while (delivery.status === "pending" && Date.now() < deadline);
        assert.equal(delivery.status, "delivered");
        assert.deepEqual(
          delivery.attempts.map((a) => [a.status_code, a.error?.startsWith("interrupted") ?? false]),
          [
            [null, true],
            [200, false],
          ],
          `the interrupted run is on the record, then the attempt that succeeded: ${JSON.stringify(delivery.attempts)}`,
        );
      } finally {
        second.child.kill("SIGTERM");
        await second.exited;
      }
    } finally {
      await receiver.close();
    }
  });
});
