import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  emitEvent,
  hasReceivers,
  listEvents,
  type OutboxEvent,
} from "../../../src/platform/events/outbox.js";
import { purgeSettledEvents } from "../../../src/platform/events/retention.js";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import {
  type Answer,
  type Received,
  type Receiver,
  signedWith,
  startReceiver,
} from "../../platform/events/webhook-receiver.js";
import { bulkPatient, createHolder, createPolicy } from "../policies/fixtures.js";
import { createRequest } from "../prior-auth/fixtures.js";

const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

interface DeliveryView {
  delivery_id: number;
  event_id: string;
  event_type: string;
  status: string;
  next_attempt_at: string | null;
  attempt_count: number;
  attempts: {
    attempt: number;
    attempted_at: string;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    next_attempt_at: string | null;
  }[];
}

async function register(
  tenant: TenantClient,
  body: { webhook_url: string; hook_type: string; secret_token?: string | null },
) {
  const res = await tenant.call("POST", "/webhook/create", body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: number; is_active: boolean };
}

async function deliveries(tenant: TenantClient, webhookId: number): Promise<DeliveryView[]> {
  const res = await tenant.call("GET", `/webhook/${webhookId}/deliveries?limit=100`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** waits until every delivery of the webhook has settled (none pending), and returns them oldest first */
async function settled(tenant: TenantClient, webhookId: number, count: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await deliveries(tenant, webhookId);
    if (list.length >= count && list.every((d) => d.status !== "pending")) return list.reverse();
    if (Date.now() > deadline) throw new Error(`deliveries did not settle: ${JSON.stringify(list, null, 1)}`);
    await sleep(50);
  }
}

function emit(ctx: TestContext, tenant: TenantClient, event: Partial<OutboxEvent> = {}) {
  return ctx.db.transaction((tx) =>
    emitEvent(tx, ctx.jobs, tenant.id, {
      hookType: "POLICY",
      eventType: "POLICY",
      data: { type: "TEST", n: 1 },
      ...event,
    }),
  );
}

describe("webhook registration", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("creates, lists and removes a webhook with the spec's fields", async () => {
    const tenant = await ctx.newTenant();
    const created = await tenant.call("POST", "/webhook/create", {
      webhook_url: "https://erp.example.sa/hooks/mizan",
      hook_type: "PRE_AUTH_RESULT",
      secret_token: "s3cret-token",
    });
    assert.equal(created.statusCode, 201, created.body);
    const webhook = created.json();
    assert.deepEqual(Object.keys(webhook).sort(), [
      "created_at",
      "hook_type",
      "id",
      "is_active",
      "secret_token",
      "webhook_url",
    ]);
    assert.equal(webhook.webhook_url, "https://erp.example.sa/hooks/mizan");
    assert.equal(webhook.hook_type, "PRE_AUTH_RESULT");
    assert.equal(webhook.secret_token, "s3cret-token");
    assert.equal(webhook.is_active, true);
    assert.match(webhook.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const unsigned = await register(tenant, { webhook_url: "http://8.8.4.4:8080/in", hook_type: "POLICY" });
    const list = await tenant.call("GET", "/webhook/list");
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().data.map((w: { id: number; secret_token: string | null }) => [w.id, w.secret_token]),
      [
        [webhook.id, "s3cret-token"],
        [unsigned.id, null],
      ],
    );

    const removed = await tenant.call("DELETE", `/webhook/remove/${webhook.id}`);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(removed.json(), { ...webhook, is_active: false });
    const again = await tenant.call("DELETE", `/webhook/remove/${webhook.id}`);
    assert.equal(again.statusCode, 200, "removing twice is harmless");
    const after = (await tenant.call("GET", "/webhook/list")).json().data;
    assert.deepEqual(
      after.map((w: { id: number; is_active: boolean }) => [w.id, w.is_active]),
      [
        [webhook.id, false],
        [unsigned.id, true],
      ],
    );
    assert.deepEqual(await auditActions(ctx.db, tenant.id, "webhook", String(webhook.id)), [
      "webhook.create",
      "webhook.remove",
    ]);
  });

  it("accepts every hook type of the spec", async () => {
    const tenant = await ctx.newTenant();
    for (const hookType of [
      "CLAIM",
      "PRE_AUTH",
      "BOTH",
      "POLICY",
      "PRE_AUTH_RESULT",
      "COMMUNICATION",
      "REOPENED",
      "REFERRED",
    ]) {
      await register(tenant, { webhook_url: "https://erp.example.sa/h", hook_type: hookType });
    }
    assert.equal((await tenant.call("GET", "/webhook/list")).json().data.length, 8);
  });

  it("refuses bad input with 400 naming the field, and stores nothing", async () => {
    const tenant = await ctx.newTenant();
    const cases: [unknown, RegExp][] = [
      [{ hook_type: "POLICY" }, /webhook_url/],
      [{ webhook_url: "https://erp.example.sa/h" }, /hook_type/],
      [{ webhook_url: "https://erp.example.sa/h", hook_type: "EVERYTHING" }, /hook_type/],
      [
        { webhook_url: "not a url", hook_type: "POLICY" },
        /webhook_url must be an absolute http or https URL/,
      ],
      [
        { webhook_url: "ftp://erp.example.sa/h", hook_type: "POLICY" },
        /webhook_url must be an http or https URL/,
      ],
      [
        { webhook_url: "https://u:p@erp.example.sa/h", hook_type: "POLICY" },
        /webhook_url must not carry credentials/,
      ],
      [
        { webhook_url: "https://erp.example.sa/h", hook_type: "POLICY", secret_token: "whsec_%%%" },
        /secret_token/,
      ],
      [{ webhook_url: "https://erp.example.sa/h", hook_type: "POLICY", secret_token: 42 }, /secret_token/],
      [{ webhook_url: `https://erp.example.sa/${"x".repeat(2048)}`, hook_type: "POLICY" }, /webhook_url/],
    ];
    for (const [body, field] of cases) {
      const res = await tenant.call("POST", "/webhook/create", body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
      assert.match(res.json().details.join(" "), field, JSON.stringify(body));
    }
    assert.deepEqual((await tenant.call("GET", "/webhook/list")).json().data, []);
  });

  it("answers 404 for an unknown or another tenant's webhook, and 401 without a key", async () => {
    const owner = await ctx.newTenant();
    const other = await ctx.newTenant();
    const webhook = await register(owner, { webhook_url: "https://erp.example.sa/h", hook_type: "POLICY" });
    for (const [method, path] of [
      ["DELETE", `/webhook/remove/${webhook.id}`],
      ["GET", `/webhook/${webhook.id}/deliveries`],
      ["POST", `/webhook/${webhook.id}/test`],
      ["DELETE", "/webhook/remove/999999999"],
    ] as const) {
      const res = await other.call(method, path);
      assert.equal(res.statusCode, 404, `${method} ${path}`);
      assert.equal(res.json().ErrorCode, "E_WEBHOOK_NOT_FOUND_404");
    }
    assert.equal((await owner.call("GET", "/webhook/list")).json().data[0].is_active, true);
    const bad = await owner.call("DELETE", "/webhook/remove/abc");
    assert.equal(bad.statusCode, 400);
    const anonymous = await ctx.app.inject({ method: "GET", url: `/${owner.name}/v4.0/health/webhook/list` });
    assert.equal(anonymous.statusCode, 401);
  });

  it("refuses non-public targets by default, naming the field, and stores nothing", async () => {
    const guarded = await startTestApp({ MIZAN_WEBHOOK_ALLOW_PRIVATE: "" });
    try {
      for (const url of [
        "http://127.0.0.1:9/h",
        "http://localhost:9/h",
        "http://10.0.0.8/h",
        "http://[::1]/h",
        "http://2130706433/h",
        "http://0x7f.1/h",
        "http://[::ffff:169.254.169.254]/h",
      ]) {
        const res = await guarded.tenant.call("POST", "/webhook/create", {
          webhook_url: url,
          hook_type: "POLICY",
        });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400", url);
        assert.match(
          res.json().message,
          /^webhook_url points to a loopback, private or otherwise non-public address$/,
          url,
        );
      }
      assert.deepEqual((await guarded.tenant.call("GET", "/webhook/list")).json().data, []);
      const publicTarget = await guarded.tenant.call("POST", "/webhook/create", {
        webhook_url: "http://8.8.8.8/h",
        hook_type: "POLICY",
      });
      assert.equal(publicTarget.statusCode, 201, publicTarget.body);
    } finally {
      await guarded.close();
    }
  });
});

describe("webhook delivery", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  async function withReceiver(
    answer: (n: number) => Answer,
    test: (url: string, got: Received[], waitFor: Receiver["waitFor"]) => Promise<void>,
  ) {
    const receiver = await startReceiver(answer);
    try {
      await test(receiver.url, receiver.received, receiver.waitFor);
    } finally {
      await receiver.close();
    }
  }

  it("signs a test event with the Standard Webhooks headers, and records the attempt", async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await ctx.newTenant();
      const webhook = await register(tenant, {
        webhook_url: receiver.url,
        hook_type: "POLICY",
        secret_token: WHSEC,
      });
      const sent = await tenant.call("POST", `/webhook/${webhook.id}/test`);
      assert.equal(sent.statusCode, 202, sent.body);
      const [got] = await receiver.waitFor(1);
      assert.ok(got);
      assert.equal(got.headers["content-type"], "application/json");
      assert.equal(got.headers["webhook-id"], sent.json().event_id);
      assert.ok(Math.abs(Number(got.headers["webhook-timestamp"]) - Date.now() / 1000) < 5);
      assert.match(String(got.headers["webhook-signature"]), /^v1,[A-Za-z0-9+/]+=*$/);
      assert.ok(signedWith(WHSEC, got), "the signature verifies with the secret");
      assert.ok(!signedWith("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", got), "and not with another");
      assert.deepEqual(Object.keys(got.json), ["event_type", "event_id", "timestamp", "data"]);
      assert.equal(got.json.event_type, "PING");
      assert.equal(got.json.event_id, sent.json().event_id);
      assert.deepEqual(got.json.data, {
        webhook_id: webhook.id,
        hook_type: "POLICY",
        message: "Test event from Mizan",
      });

      const [delivery] = await settled(tenant, webhook.id, 1);
      assert.equal(delivery?.delivery_id, sent.json().delivery_id);
      assert.equal(delivery?.status, "delivered");
      assert.equal(delivery?.next_attempt_at, null);
      assert.equal(delivery?.attempts.length, 1);
      assert.equal(delivery?.attempts[0]?.status_code, 200);
      assert.equal(delivery?.attempts[0]?.error, null);
      assert.equal(delivery?.attempts[0]?.next_attempt_at, null);
    } finally {
      await receiver.close();
    }
  });

  it("signs with the UTF-8 bytes of a plain secret, and sends no signature without one", async () => {
    await withReceiver(
      () => 204,
      async (url, got, waitFor) => {
        const tenant = await ctx.newTenant();
        await register(tenant, { webhook_url: url, hook_type: "POLICY", secret_token: "plain secret ✓" });
        await register(tenant, { webhook_url: url, hook_type: "POLICY" });
        await emit(ctx, tenant);
        await waitFor(2, 10_000);
        const signed = got.find((r) => r.headers["webhook-signature"] !== undefined);
        const unsigned = got.find((r) => r.headers["webhook-signature"] === undefined);
        assert.ok(signed && unsigned, "one signed delivery and one unsigned");
        assert.ok(signedWith("plain secret ✓", signed));
        assert.equal(
          signed.headers["webhook-id"],
          unsigned.headers["webhook-id"],
          "both carry the event's id",
        );
      },
    );
  });

  it("retries a 500 with the same id and body, on an exponential schedule with jitter", async () => {
    await withReceiver(
      (n) => (n < 2 ? { status: 500, body: "database down" } : 200),
      async (url, got) => {
        const tenant = await ctx.newTenant();
        const webhook = await register(tenant, {
          webhook_url: url,
          hook_type: "POLICY",
          secret_token: WHSEC,
        });
        const eventId = await emit(ctx, tenant);
        const [delivery] = await settled(tenant, webhook.id, 1);
        assert.equal(got.length, 3);
        assert.deepEqual(new Set(got.map((r) => r.headers["webhook-id"])), new Set([eventId]));
        assert.deepEqual(
          new Set(got.map((r) => r.body)),
          new Set([got[0]?.body]),
          "the same bytes each time",
        );
        assert.ok(got.every((r) => signedWith(WHSEC, r)));

        assert.equal(delivery?.status, "delivered");
        const attempts = delivery?.attempts ?? [];
        assert.deepEqual(
          attempts.map((a) => [a.attempt, a.status_code, a.error]),
          [
            // the answer's body is not kept: the status says what the tenant needs
            [1, 500, "HTTP 500"],
            [2, 500, "HTTP 500"],
            [3, 200, null],
          ],
        );
        // first retry 200 ms, then 400 ms, each +-25 %, counted from the end of the failed attempt
        for (const [index, base] of [
          [0, 200],
          [1, 400],
        ] as const) {
          const attempt = attempts[index];
          assert.ok(attempt?.next_attempt_at);
          const wait =
            Date.parse(attempt.next_attempt_at) - Date.parse(attempt.attempted_at) - attempt.latency_ms;
          assert.ok(wait >= base * 0.75 - 5 && wait <= base * 1.25 + 50, `wait ${wait} ms for base ${base}`);
          const next = attempts[index + 1];
          assert.ok(next && Date.parse(next.attempted_at) >= Date.parse(attempt.next_attempt_at));
        }
        assert.equal(attempts[2]?.next_attempt_at, null);
      },
    );
  });

  it("gives a delivery up once its retry window has passed since the first attempt", async () => {
    await withReceiver(
      () => 503,
      async (url, got) => {
        const tenant = await ctx.newTenant();
        const webhook = await register(tenant, { webhook_url: url, hook_type: "POLICY" });
        await emit(ctx, tenant);
        const [delivery] = await settled(tenant, webhook.id, 1, 20_000);
        assert.equal(delivery?.status, "failed");
        const attempts = delivery?.attempts ?? [];
        assert.ok(attempts.length >= 4, `${attempts.length} attempts`);
        assert.equal(got.length, attempts.length);
        const first = Date.parse(attempts[0]?.attempted_at ?? "");
        const last = attempts.at(-1);
        assert.ok(
          Date.parse(last?.attempted_at ?? "") - first >= 3_000,
          "retried for the whole window (3 s here)",
        );
        assert.equal(last?.next_attempt_at, null);
        assert.ok(attempts.slice(0, -1).every((a) => a.next_attempt_at !== null));
      },
    );
  });

  it("deactivates the webhook on 410 and sends it nothing more", async () => {
    await withReceiver(
      () => 410,
      async (url, got) => {
        const tenant = await ctx.newTenant();
        const webhook = await register(tenant, { webhook_url: url, hook_type: "POLICY" });
        await emit(ctx, tenant);
        const [delivery] = await settled(tenant, webhook.id, 1);
        assert.equal(delivery?.status, "failed");
        assert.equal(delivery?.attempts.length, 1);
        const [listed] = (await tenant.call("GET", "/webhook/list")).json().data;
        assert.equal(listed.is_active, false);
        assert.deepEqual(await auditActions(ctx.db, tenant.id, "webhook", String(webhook.id)), [
          "webhook.create",
          "webhook.deactivate",
        ]);
        await emit(ctx, tenant);
        const ping = await tenant.call("POST", `/webhook/${webhook.id}/test`);
        assert.equal(ping.statusCode, 409);
        assert.equal(ping.json().ErrorCode, "E_WEBHOOK_INACTIVE_409");
        await sleep(1_000);
        assert.equal(got.length, 1);
        assert.equal((await deliveries(tenant, webhook.id)).length, 1, "no delivery is even created");
      },
    );
  });

  it("times out a receiver that does not answer, and retries", async () => {
    await withReceiver(
      (n) => (n === 0 ? "hang" : 200),
      async (url, got) => {
        const tenant = await ctx.newTenant();
        const webhook = await register(tenant, { webhook_url: url, hook_type: "POLICY" });
        await emit(ctx, tenant);
        const [delivery] = await settled(tenant, webhook.id, 1);
        assert.equal(delivery?.status, "delivered");
        const [first, second] = delivery?.attempts ?? [];
        assert.equal(first?.status_code, null);
        assert.equal(first?.error, "no complete answer within 1500 ms");
        assert.ok(
          (first?.latency_ms ?? 0) >= 1_450 && (first?.latency_ms ?? 0) < 3_000,
          `${first?.latency_ms}`,
        );
        assert.equal(second?.status_code, 200);
        assert.equal(got.length, 2);
      },
    );
  });

  it("does not follow redirects", async () => {
    const elsewhere = await startReceiver();
    try {
      await withReceiver(
        () => ({ status: 302, headers: { location: elsewhere.url } }),
        async (url) => {
          const tenant = await ctx.newTenant();
          const webhook = await register(tenant, { webhook_url: url, hook_type: "POLICY" });
          await emit(ctx, tenant);
          await sleep(600);
          const [delivery] = await deliveries(tenant, webhook.id);
          assert.equal(delivery?.attempts[0]?.status_code, 302);
          assert.equal(delivery?.attempts[0]?.error, "HTTP 302: redirects are not followed");
          assert.equal(elsewhere.received.length, 0);
          await tenant.call("DELETE", `/webhook/remove/${webhook.id}`);
        },
      );
    } finally {
      await elsewhere.close();
    }
  });

  it("sends nothing to a removed webhook, and cancels its pending retries", async () => {
    await withReceiver(
      (n) => (n === 0 ? 500 : 200),
      async (url, got, waitFor) => {
        const tenant = await ctx.newTenant();
        const webhook = await register(tenant, { webhook_url: url, hook_type: "POLICY" });
        await emit(ctx, tenant);
        await waitFor(1);
        const removed = await tenant.call("DELETE", `/webhook/remove/${webhook.id}`);
        assert.equal(removed.json().is_active, false);
        await emit(ctx, tenant);
        await sleep(1_500); // well past the retry that was due after 200 ms
        assert.equal(got.length, 1);
        const list = await deliveries(tenant, webhook.id);
        assert.equal(list.length, 1);
        assert.equal(list[0]?.status, "cancelled");
      },
    );
  });

  it("delivers an event only to the emitting tenant's webhooks of a matching hook type", async () => {
    await withReceiver(
      () => 200,
      async (url, got) => {
        const tenant = await ctx.newTenant();
        const other = await ctx.newTenant();
        const hooks: Record<string, number> = {};
        for (const hookType of ["PRE_AUTH_RESULT", "PRE_AUTH", "CLAIM", "BOTH", "POLICY", "REFERRED"]) {
          hooks[hookType] = (
            await register(tenant, { webhook_url: `${url}?${hookType}`, hook_type: hookType })
          ).id;
        }
        await register(other, { webhook_url: `${url}?other`, hook_type: "PRE_AUTH_RESULT" });
        await emit(ctx, tenant, {
          hookType: "PRE_AUTH_RESULT",
          eventType: "PRE_AUTH_RESULT",
          transactionType: "PREAUTH",
          data: { transaction_id: "T-1" },
        });
        await emit(ctx, tenant, { hookType: "POLICY", eventType: "POLICY", data: { type: "X" } });
        await sleep(1_500);
        assert.equal(got.length, 4, JSON.stringify(got.map((r) => r.json.event_type)));
        for (const [hookType, expected] of [
          ["PRE_AUTH_RESULT", ["PRE_AUTH_RESULT"]],
          ["PRE_AUTH", ["PRE_AUTH_RESULT"]],
          ["BOTH", ["PRE_AUTH_RESULT"]],
          ["CLAIM", []],
          ["REFERRED", []],
          ["POLICY", ["POLICY"]],
        ] as const) {
          const list = await deliveries(tenant, hooks[hookType] as number);
          assert.deepEqual(
            list.map((d) => d.event_type),
            expected,
            hookType,
          );
        }
      },
    );
  });

  it("finds before a create's commit whether a webhook receives its result, as the event's deliveries do", async () => {
    await withReceiver(
      () => 200,
      async (url, _got, waitFor) => {
        const audience = (transactionType: "PREAUTH" | "CLAIM") => ({
          hookType: "PRE_AUTH_RESULT" as const,
          eventType: "PRE_AUTH_RESULT",
          transactionType,
        });
        let delivered = 0;
        for (const [hookType, receives] of [
          ["PRE_AUTH_RESULT", { PREAUTH: true, CLAIM: true }],
          ["PRE_AUTH", { PREAUTH: true, CLAIM: false }],
          ["CLAIM", { PREAUTH: false, CLAIM: true }],
          ["BOTH", { PREAUTH: true, CLAIM: true }],
          ["POLICY", { PREAUTH: false, CLAIM: false }],
        ] as const) {
          const tenant = await ctx.newTenant("lightweight");
          const webhook = await register(tenant, { webhook_url: url, hook_type: hookType });
          for (const transactionType of ["PREAUTH", "CLAIM"] as const) {
            const found = await ctx.db.transaction((tx) =>
              hasReceivers(tx, tenant.id, audience(transactionType)),
            );
            assert.equal(found, receives[transactionType], `${hookType} of ${transactionType}`);
          }
          // a create reads it in its transaction: its result reaches the webhook exactly when it receives it,
          // and is stored only then (an event nobody receives would only wait for the purge)
          const { body } = await createRequest(tenant);
          const list = await deliveries(tenant, webhook.id);
          assert.deepEqual(
            list.map((delivery) => delivery.event_type),
            receives.PREAUTH ? ["PRE_AUTH_RESULT"] : [],
            hookType,
          );
          const stored = async (transactionId: string) =>
            (await listEvents(ctx.db, tenant.id, "PRE_AUTH_RESULT")).filter(
              (event) => event.data.transaction_id === transactionId,
            ).length;
          assert.equal(await stored(body.transaction_id), receives.PREAUTH ? 1 : 0, hookType);
          if (receives.PREAUTH) {
            delivered++;
            const event = (await waitFor(delivered)).at(-1);
            assert.equal(event?.json.data.transaction_id, body.transaction_id);
          }
          // removed, it receives nothing more
          assert.equal((await tenant.call("DELETE", `/webhook/remove/${webhook.id}`)).statusCode, 200);
          assert.equal(
            await ctx.db.transaction((tx) => hasReceivers(tx, tenant.id, audience("PREAUTH"))),
            false,
          );
          const after = await createRequest(tenant);
          assert.equal((await deliveries(tenant, webhook.id)).length, receives.PREAUTH ? 1 : 0);
          assert.equal(await stored(after.body.transaction_id), 0, `${hookType} removed`);
        }
      },
    );
  });

  it("delivers the events of one subject in the order they were emitted, even across a retry", async () => {
    await withReceiver(
      (n) => (n === 0 ? 500 : 200),
      async (url, got) => {
        const tenant = await ctx.newTenant();
        const webhook = await register(tenant, { webhook_url: url, hook_type: "POLICY" });
        for (let n = 1; n <= 6; n++) {
          await emit(ctx, tenant, { subject: "batch:1", data: { n } });
        }
        await settled(tenant, webhook.id, 6);
        const order = got.map((r) => r.json.data.n);
        assert.deepEqual(order, [1, 1, 2, 3, 4, 5, 6]);
      },
    );
  });

  it("delivers the POLICY event of an asynchronous bulk import", async () => {
    await withReceiver(
      () => 200,
      async (url, _got, waitFor) => {
        const tenant = await ctx.newTenant();
        await register(tenant, { webhook_url: url, hook_type: "POLICY", secret_token: WHSEC });
        await createHolder(tenant, "PH-W");
        await createPolicy(tenant, "PH-W", "POL-W");
        const accepted = await tenant.call("POST", "/policy/async-bulk-patient-to-policy", {
          ph_erp_id: "PH-W",
          policy_no: "POL-W",
          patients: [bulkPatient("M-W-1"), bulkPatient("M-W-2")],
        });
        assert.equal(accepted.statusCode, 202, accepted.body);
        const [event] = await waitFor(1);
        assert.equal(event?.json.event_type, "POLICY");
        assert.equal(event?.json.data.type, "BULK_PATIENT_IMPORT");
        assert.equal(event?.json.data.job_id, accepted.json().job_id);
        assert.equal(event?.json.data.created, 2);
        assert.ok(event && signedWith(WHSEC, event));
      },
    );
  });
});

describe("event retention", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("purges settled deliveries and their events past the retention period, keeping pending ones", async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await ctx.newTenant();
      const webhook = await register(tenant, { webhook_url: receiver.url, hook_type: "POLICY" });
      const old = [];
      for (const n of [1, 2, 3]) old.push(await emit(ctx, tenant, { data: { n } }));
      const undelivered = await emit(ctx, tenant, { hookType: "REFERRED", eventType: "REFERRED", data: {} });
      await settled(tenant, webhook.id, 3);
      await ctx.db.query(
        `UPDATE events SET created_at = now() - interval '40 days' WHERE id = ANY($1::uuid[])`,
        [[...old, undelivered]],
      );
      await ctx.db.query(
        `UPDATE event_deliveries SET created_at = now() - interval '40 days' WHERE event_id = ANY($1::uuid[])`,
        [old],
      );
      // the third is still being retried: it stays, however old
      await ctx.db.query(`UPDATE event_deliveries SET status = 'pending' WHERE event_id = $1`, [old[2]]);
      const recent = await emit(ctx, tenant, { data: { n: 4 } });
      while (
        !(await deliveries(tenant, webhook.id)).some((d) => d.event_id === recent && d.status === "delivered")
      )
        await sleep(50);

      const purged = await purgeSettledEvents(ctx.db, new Date(Date.now() - 30 * 86_400_000));
      assert.ok(purged.deliveries >= 2 && purged.events >= 3, JSON.stringify(purged));
      assert.deepEqual(
        (await listEvents(ctx.db, tenant.id)).map((event) => event.id),
        [old[2], recent],
      );
      const kept = await deliveries(tenant, webhook.id);
      assert.deepEqual(
        kept.map((d) => d.event_id),
        [recent, old[2]],
      );
      assert.equal(kept[0]?.attempts.length, 1, "a kept delivery keeps its attempts");
    } finally {
      await receiver.close();
    }
  });
});
