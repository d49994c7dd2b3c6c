import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext } from "../helpers.js";
import { startReceiver } from "./events/webhook-receiver.js";

/** the value of the first sample line of `text` that starts with `prefix` (labels included) */
function sample(text: string, prefix: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("operations: metrics", () => {
  let ctx: TestContext;
  before(async () => {
    // an API-only app: jobs wait in their queues
    ctx = await startTestApp({}, { workers: 0 });
  });
  after(() => ctx.close());

  const scrape = async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/metrics" });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it("counts requests by route pattern, method and status, with latency histograms", async () => {
    for (let i = 0; i < 3; i++)
      assert.equal((await ctx.tenant.call("GET", "/network/find-all")).statusCode, 200);
    assert.equal((await ctx.tenant.call("GET", "/network/99")).statusCode, 404);
    const text = await scrape();
    const route = `route="/:tenant/v4.0/health/network/find-all",method="GET",status_code="200"`;
    assert.equal(sample(text, `mizan_http_requests_total{${route}}`), 3);
    assert.equal(
      sample(
        text,
        `mizan_http_requests_total{route="/:tenant/v4.0/health/network/:id",method="GET",status_code="404"}`,
      ),
      1,
    );
    assert.equal(sample(text, `mizan_http_request_duration_seconds_count{${route}}`), 3);
    assert.ok(text.includes(`mizan_http_request_duration_seconds_bucket{le="0.005",${route}}`));
    assert.ok(!text.includes(ctx.tenant.name), "no raw URL in the labels");
  });

  it("shows the depth and the oldest job's age of each queue", async () => {
    const webhook = await ctx.tenant.call("POST", "/webhook/create", {
      webhook_url: "http://127.0.0.1:9/hooks",
      hook_type: "POLICY",
    });
    for (let i = 0; i < 2; i++)
      assert.equal((await ctx.tenant.call("POST", `/webhook/${webhook.json().id}/test`)).statusCode, 202);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = await scrape();
    assert.equal(sample(text, `mizan_job_queue_depth{queue="event-delivery"}`), 2);
    const age = sample(text, `mizan_job_queue_oldest_age_seconds{queue="event-delivery"}`) ?? 0;
    assert.ok(age >= 1 && age < 60, `oldest ${age} s`);
  });

  it("shows the process's own figures", async () => {
    const text = await scrape();
    assert.ok((sample(text, "mizan_process_cpu_user_seconds_total") ?? 0) > 0);
    assert.ok((sample(text, "mizan_process_resident_memory_bytes") ?? 0) > 0);
    assert.ok(text.includes("# TYPE mizan_batch_analyses_total counter"));
    assert.ok(text.includes("# TYPE mizan_batch_analysis_duration_seconds histogram"));
  });

  it("redirects / to the docs, and documents /healthz, /readyz and /metrics", async () => {
    const root = await ctx.app.inject({ method: "GET", url: "/" });
    assert.equal(root.statusCode, 302);
    assert.equal(root.headers.location, "/docs");
    const paths = (await ctx.app.inject({ method: "GET", url: "/openapi.json" })).json().paths;
    for (const path of ["/healthz", "/readyz", "/metrics"]) assert.ok(paths[path]?.get, path);
    assert.deepEqual(Object.keys(paths["/readyz"].get.responses).sort(), ["200", "503"]);
  });
});

describe("operations: metrics of deliveries and batch analyses", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("counts deliveries by target and outcome", async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    try {
      const webhook = await ctx.tenant.call("POST", "/webhook/create", {
        webhook_url: receiver.url,
        hook_type: "POLICY",
      });
      await ctx.tenant.call("POST", `/webhook/${webhook.json().id}/test`);
      await receiver.waitFor(2);
      const delivered = `mizan_webhook_deliveries_total{target="webhook",outcome="delivered"}`;
      const deadline = Date.now() + 10_000;
      let text = "";
      do {
        text = (await ctx.app.inject({ method: "GET", url: "/metrics" })).body;
        if (sample(text, delivered) !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } while (Date.now() < deadline);
      // (on PostgreSQL this process's other apps left deliveries to a closed port, which fail too)
      assert.ok((sample(text, `mizan_webhook_deliveries_total{target="webhook",outcome="retry"}`) ?? 0) >= 1);
      assert.equal(sample(text, delivered), 1);
    } finally {
      await receiver.close();
    }
  });
});

describe("operations: metrics turned off", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({ MIZAN_METRICS: "0" }, { workers: 0 });
  });
  after(() => ctx.close());

  it("has no /metrics", async () => {
    assert.equal((await ctx.app.inject({ method: "GET", url: "/metrics" })).statusCode, 404);
  });
});
