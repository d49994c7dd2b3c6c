import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { analysedBatch, claimsCall, tokenFor } from "../claims-batch/fixtures.js";
import { HEAVY, learningBatch, ORDINARY } from "./fixtures.js";

describe("learning from outcomes", () => {
  let ctx: TestContext;
  let token: string;
  const batches: string[] = [];

  const call = (method: "GET" | "POST" | "DELETE", url: string, body?: unknown, as = token) =>
    claimsCall(ctx.app, as, {
      method,
      url,
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, payload: JSON.stringify(body) }),
    });

  const analysed = async (k: number, tenantToken = token): Promise<string> =>
    (await analysedBatch(ctx.app, tenantToken, learningBatch(k))).batchId;

  /** the model once no fit is pending */
  async function settledModel(as = token) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const model = (await call("GET", "/v1/fwa/model", undefined, as)).json();
      if (model.status !== "training") return model;
      if (Date.now() > deadline) throw new Error("the model is still training");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  before(async () => {
    ctx = await startTestApp();
    token = await tokenFor(ctx.app, ctx.tenant);
    batches.push(await analysed(1), await analysed(2));
  });
  after(() => ctx.close());

  it("has no model before outcomes, and the unsupervised ranking stands", async () => {
    const model = (await call("GET", "/v1/fwa/model")).json();
    assert.equal(model.status, "none");
    assert.equal(model.examples, 0);
    assert.equal(model.active, false);
    assert.deepEqual(model.minimum, { examples: 30, per_class: 8, validation_roc_auc: 0.6 });
    const ranked = (await call("GET", `/v1/claims/batch/${batches[0]}/providers?per_page=1`)).json();
    assert.ok(ranked.providers[0].reasons.every((r: { code: string }) => r.code.startsWith("FWA-RANK-")));
  });

  it("changes nothing for an unknown batch, and says why", async () => {
    const res = await call("POST", "/v1/fwa/outcomes", {
      batch_id: "00000000-0000-4000-8000-000000000000",
      providers: [{ provider_id: "F-0", fraud: true }],
    });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, "NOT_FOUND");
    assert.match(res.json().error.message, /unknown, not analysed yet, or its results are no longer kept/);
    assert.equal((await call("GET", "/v1/fwa/model")).json().examples, 0);
    const bad = await call("POST", "/v1/fwa/outcomes", { batch_id: batches[0], providers: [] });
    assert.equal(bad.statusCode, 400);
  });

  it("rejects providers not in the batch and contradictions, counts duplicates once, and waits for both verdicts", async () => {
    const res = await call("POST", "/v1/fwa/outcomes", {
      batch_id: batches[0],
      providers: [
        ...ORDINARY.map((provider_id) => ({ provider_id, fraud: false })),
        ...HEAVY.map((provider_id) => ({ provider_id, fraud: false })),
        { provider_id: "N-0", fraud: false },
        { provider_id: "X-UNKNOWN", fraud: true },
        { provider_id: "N-1", fraud: true },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.accepted, 39, "40 providers, N-0 once, N-1 contradicted");
    assert.deepEqual(body.rejected.map((r: { provider_id: string }) => r.provider_id).sort(), [
      "N-1",
      "X-UNKNOWN",
    ]);
    assert.match(
      body.rejected.find((r: { provider_id: string }) => r.provider_id === "X-UNKNOWN").reason,
      /^not a provider of batch /,
    );
    assert.equal(body.model.status, "training");
    const model = await settledModel();
    assert.equal(model.status, "none", "one verdict only: nothing to learn");
    assert.equal(model.examples, 39);
    assert.equal(model.positives, 0);
    assert.match(model.message, /needs 30 outcomes with 8 of each verdict; there are 39 \(0 fraud, 39 not\)/);
  });

  it("fits a model once both verdicts are there, validated on held-out providers, and ranks later batches with it", async () => {
    const res = await call("POST", "/v1/fwa/outcomes", {
      batch_id: batches[0],
      providers: [
        ...HEAVY.map((provider_id) => ({ provider_id, fraud: true })),
        { provider_id: "N-1", fraud: false },
      ],
    });
    assert.equal(res.json().accepted, 13);
    assert.equal(res.json().replaced, 12, "the heavy billers' earlier verdicts change");
    const model = await settledModel();
    assert.equal(model.status, "ready", JSON.stringify(model));
    assert.equal(model.examples, 40);
    assert.equal(model.positives, 12);
    assert.equal(model.active, true);
    assert.ok(model.validation.roc_auc > 0.9, JSON.stringify(model.validation));
    assert.ok(model.validation.pr_auc > 0.8);
    assert.deepEqual(
      model.features.map((f: { name: string }) => f.name),
      ["volume", "amount", "stay", "cost_per_day", "flags", "profile"],
    );
    const volume = model.features.find((f: { name: string }) => f.name === "volume");
    assert.ok(volume.weight > 0, "more claims, more risk");

    const later = await analysed(3);
    const ranked = (await call("GET", `/v1/claims/batch/${later}/providers?per_page=100`)).json();
    const [top] = ranked.providers;
    assert.ok(HEAVY.includes(top.provider_id));
    assert.ok(top.risk_score > 0.9);
    assert.ok(
      top.reasons.length > 0 && top.reasons.every((r: { code: string }) => r.code.startsWith("FWA-MODEL-")),
    );
    assert.match(top.reasons[0].cause, /the model weighs it \+\d/);
    const ordinary = ranked.providers.filter((p: { provider_id: string }) => p.provider_id.startsWith("N-"));
    assert.ok(ordinary.every((p: { risk_score: number }) => p.risk_score < 0.5));
  });

  it("loses no example to concurrent posts", async () => {
    const everyone = [...HEAVY, ...ORDINARY];
    const posts = Array.from({ length: 10 }, (_, k) =>
      call("POST", "/v1/fwa/outcomes", {
        batch_id: batches[1],
        providers: everyone
          .slice(4 * k, 4 * k + 4)
          .map((provider_id) => ({ provider_id, fraud: HEAVY.includes(provider_id) })),
      }),
    );
    const answers = await Promise.all(posts);
    assert.ok(answers.every((res) => res.statusCode === 200));
    assert.equal((await settledModel()).examples, 80);
  });

  it("keeps tenants apart", async () => {
    const other: TenantClient = await ctx.newTenant();
    const otherToken = await tokenFor(ctx.app, other);
    assert.equal((await call("GET", "/v1/fwa/model", undefined, otherToken)).json().status, "none");
    const foreign = await call(
      "POST",
      "/v1/fwa/outcomes",
      { batch_id: batches[0], providers: [{ provider_id: "F-0", fraud: true }] },
      otherToken,
    );
    assert.equal(foreign.statusCode, 404);
  });

  it("forgets the model and its outcomes: the unsupervised ranking stands again", async () => {
    const forgotten = await call("DELETE", "/v1/fwa/model");
    assert.equal(forgotten.statusCode, 200);
    assert.equal(forgotten.json().status, "none");
    const model = (await call("GET", "/v1/fwa/model")).json();
    assert.deepEqual([model.status, model.examples, model.features], ["none", 0, []]);
    const later = await analysed(4);
    const ranked = (await call("GET", `/v1/claims/batch/${later}/providers?per_page=1`)).json();
    assert.ok(ranked.providers[0].reasons.every((r: { code: string }) => r.code.startsWith("FWA-RANK-")));
  });
});
