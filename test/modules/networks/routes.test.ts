import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";

describe("network", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  describe("POST /network/create", () => {
    it("creates a network, defaulting is_vip to false, and audits it", async () => {
      const res = await ctx.tenant.call("POST", "/network/create", { name: "Gold" });
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.deepEqual(
        { ...body, internal_id: typeof body.internal_id },
        {
          internal_id: "number",
          name: "Gold",
          is_vip: false,
          code: 201,
          message: "Network created successfully",
        },
      );
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "network", String(body.internal_id)), [
        "network.create",
      ]);
    });

    it("keeps is_vip when sent", async () => {
      const res = await ctx.tenant.call("POST", "/network/create", { name: "Platinum", is_vip: true });
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().is_vip, true);
    });

    it("answers 409 E_CONFLICT_409 for an existing name and stores nothing", async () => {
      const res = await ctx.tenant.call("POST", "/network/create", { name: "Gold", is_vip: true });
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_CONFLICT_409");
      const list = await ctx.tenant.call("GET", "/network/find-all?name=Gold");
      assert.equal(list.json().total_count, 1);
    });

    for (const [label, body, detail] of [
      ["a missing name", {}, "name is required"],
      ["an empty name", { name: "" }, "name must not have fewer than 1 characters"],
      ["a blank name", { name: "   " }, "name must not be blank"],
      [
        "a name over 255 characters",
        { name: "x".repeat(256) },
        "name must not have more than 255 characters",
      ],
      ["a non-boolean is_vip", { name: "Silver", is_vip: "yes" }, "is_vip must be boolean"],
      ["a numeric name", { name: 12 }, "name must be string"],
    ] as const) {
      it(`answers 400 E_BAD_REQUEST_400 naming the field for ${label}`, async () => {
        const res = await ctx.tenant.call("POST", "/network/create", body);
        assert.equal(res.statusCode, 400);
        const error = res.json();
        assert.equal(error.ErrorCode, "E_BAD_REQUEST_400");
        assert.ok(
          error.details.includes(detail),
          `details ${JSON.stringify(error.details)} should include "${detail}"`,
        );
      });
    }

    it("answers 400 for a body that is not JSON", async () => {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/${ctx.tenant.name}/v4.0/health/network/create`,
        headers: { "access-key": ctx.tenant.apiKey, "content-type": "application/json" },
        payload: "{not json",
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
    });

    it("answers 401 without an access-key, and with a wrong one", async () => {
      for (const headers of [{}, { "access-key": "mzk_wrong" }]) {
        const res = await ctx.app.inject({
          method: "POST",
          url: `/${ctx.tenant.name}/v4.0/health/network/create`,
          headers,
          payload: { name: "Bronze" },
        });
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), {
          ErrorCode: "API key is required",
          message: "Unauthorized",
          details: [],
        });
      }
      const list = await ctx.tenant.call("GET", "/network/find-all?name=Bronze");
      assert.equal(list.json().total_count, 0);
    });
  });

  describe("PATCH /network/update/:id", () => {
    let id: number;
    before(async () => {
      id = (await ctx.tenant.call("POST", "/network/create", { name: "Update me" })).json().internal_id;
    });

    it("changes only what is sent", async () => {
      const res = await ctx.tenant.call("PATCH", `/network/update/${id}`, { is_vip: true });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        id,
        name: "Update me",
        is_vip: true,
        code: 200,
        message: "Network updated successfully",
      });
      const renamed = await ctx.tenant.call("PATCH", `/network/update/${id}`, { name: "Updated" });
      assert.deepEqual(renamed.json(), {
        id,
        name: "Updated",
        is_vip: true,
        code: 200,
        message: "Network updated successfully",
      });
      const stored = await ctx.tenant.call("GET", `/network/${id}`);
      assert.equal(stored.json().name, "Updated");
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "network", String(id)), [
        "network.create",
        "network.update",
        "network.update",
      ]);
    });

    it("answers 400 when neither name nor is_vip is sent", async () => {
      const res = await ctx.tenant.call("PATCH", `/network/update/${id}`, {});
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().details, ["at least one of name, is_vip is required"]);
    });

    it("answers 400 for an id that is not a positive integer", async () => {
      for (const bad of ["0", "-1", "abc", "1.5"]) {
        const res = await ctx.tenant.call("PATCH", `/network/update/${bad}`, { is_vip: true });
        assert.equal(res.statusCode, 400, bad);
        assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
      }
    });

    it("answers 404 E_NOT_FOUND_404 for an unknown id", async () => {
      const res = await ctx.tenant.call("PATCH", "/network/update/999999", { is_vip: true });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "E_NOT_FOUND_404");
    });

    it("answers 409 E_CONFLICT_409 when the new name is taken, and keeps the old one", async () => {
      await ctx.tenant.call("POST", "/network/create", { name: "Taken" });
      const res = await ctx.tenant.call("PATCH", `/network/update/${id}`, { name: "Taken" });
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_CONFLICT_409");
      assert.equal((await ctx.tenant.call("GET", `/network/${id}`)).json().name, "Updated");
    });

    it("answers 401 without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "PATCH",
        url: `/${ctx.tenant.name}/v4.0/health/network/update/${id}`,
        payload: { is_vip: false },
      });
      assert.equal(res.statusCode, 401);
    });
  });

  describe("GET /network/find-all", () => {
    let tenant: TestContext["tenant"];
    before(async () => {
      tenant = await ctx.newTenant();
      for (let i = 1; i <= 25; i++) {
        await tenant.call("POST", "/network/create", {
          name: `Net ${String(i).padStart(2, "0")}`,
          is_vip: i % 5 === 0,
        });
      }
      await tenant.call("POST", "/network/create", { name: "Alpha_100%" });
    });

    it("defaults to the first 10 and counts all matches", async () => {
      const res = await tenant.call("GET", "/network/find-all");
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.total_count, 26);
      assert.equal(body.code, 200);
      assert.equal(body.data.length, 10);
      assert.deepEqual(Object.keys(body.data[0]).sort(), ["id", "is_vip", "name"]);
    });

    it("pages with limit and skip", async () => {
      const res = await tenant.call("GET", "/network/find-all?name=net&limit=10&skip=20");
      const body = res.json();
      assert.equal(body.total_count, 25);
      assert.deepEqual(
        body.data.map((n: { name: string }) => n.name),
        ["Net 21", "Net 22", "Net 23", "Net 24", "Net 25"],
      );
      const past = (await tenant.call("GET", "/network/find-all?skip=100")).json();
      assert.deepEqual({ total: past.total_count, rows: past.data.length }, { total: 26, rows: 0 });
    });

    it("filters by partial, case-insensitive name and by is_vip", async () => {
      const vip = (await tenant.call("GET", "/network/find-all?is_vip=true&limit=100")).json();
      assert.deepEqual(
        vip.data.map((n: { name: string }) => n.name),
        ["Net 05", "Net 10", "Net 15", "Net 20", "Net 25"],
      );
      const named = (await tenant.call("GET", "/network/find-all?name=NET%202")).json();
      assert.equal(named.total_count, 6);
      const both = (await tenant.call("GET", "/network/find-all?name=net%202&is_vip=false")).json();
      assert.equal(both.total_count, 4);
    });

    it("matches wildcard characters literally", async () => {
      const body = (await tenant.call("GET", "/network/find-all?name=_100%25")).json();
      assert.deepEqual(
        body.data.map((n: { name: string }) => n.name),
        ["Alpha_100%"],
      );
      assert.equal((await tenant.call("GET", "/network/find-all?name=%25")).json().total_count, 1);
    });

    for (const query of ["limit=101", "limit=0", "skip=-1", "limit=abc", "is_vip=maybe"]) {
      it(`answers 400 E_BAD_REQUEST_400 for ${query}`, async () => {
        const res = await tenant.call("GET", `/network/find-all?${query}`);
        assert.equal(res.statusCode, 400);
        const body = res.json();
        assert.equal(body.ErrorCode, "E_BAD_REQUEST_400");
        assert.match(body.details[0], new RegExp(`^${query.split("=")[0]} `));
      });
    }

    it("answers 401 without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "GET",
        url: `/${tenant.name}/v4.0/health/network/find-all`,
      });
      assert.equal(res.statusCode, 401);
    });
  });

  describe("network providers (beyond the spec)", () => {
    let networkId: number;
    before(async () => {
      networkId = (await ctx.tenant.call("POST", "/network/create", { name: "With providers" })).json()
        .internal_id;
      for (const cchi_no of ["P-1", "P-2"]) {
        const res = await ctx.tenant.call("POST", "/medical-provider/create", {
          name: cchi_no,
          city: "Riyadh",
          cchi_no,
        });
        assert.equal(res.statusCode, 201);
      }
    });

    it("adds, lists, and removes providers", async () => {
      for (const cchi_no of ["P-2", "P-1"]) {
        const res = await ctx.tenant.call("POST", `/network/${networkId}/providers`, { cchi_no });
        assert.equal(res.statusCode, 201);
        assert.deepEqual(res.json(), {
          network_id: networkId,
          cchi_no,
          code: 201,
          message: "Medical provider added to network",
        });
      }
      const list = (await ctx.tenant.call("GET", `/network/${networkId}/providers`)).json();
      assert.equal(list.total_count, 2);
      assert.deepEqual(
        list.data.map((p: { cchi_no: string }) => p.cchi_no),
        ["P-1", "P-2"],
      );
      assert.equal((await ctx.tenant.call("GET", `/network/${networkId}`)).json().provider_count, 2);

      const removed = await ctx.tenant.call("DELETE", `/network/${networkId}/providers/P-1`);
      assert.equal(removed.statusCode, 200);
      const after = (await ctx.tenant.call("GET", `/network/${networkId}/providers`)).json();
      assert.deepEqual(
        after.data.map((p: { cchi_no: string }) => p.cchi_no),
        ["P-2"],
      );
    });

    it("answers 409 for a provider already in the network", async () => {
      const res = await ctx.tenant.call("POST", `/network/${networkId}/providers`, { cchi_no: "P-2" });
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_CONFLICT_409");
    });

    it("answers 404 for an unknown network or provider, or a provider not in the network", async () => {
      const noNetwork = await ctx.tenant.call("POST", "/network/999999/providers", { cchi_no: "P-1" });
      assert.deepEqual([noNetwork.statusCode, noNetwork.json().ErrorCode], [404, "E_NOT_FOUND_404"]);
      const noProvider = await ctx.tenant.call("POST", `/network/${networkId}/providers`, {
        cchi_no: "nope",
      });
      assert.deepEqual([noProvider.statusCode, noProvider.json().ErrorCode], [404, "E_EMP_01"]);
      const notIn = await ctx.tenant.call("DELETE", `/network/${networkId}/providers/P-1`);
      assert.deepEqual([notIn.statusCode, notIn.json().ErrorCode], [404, "E_EMP_01"]);
      const listUnknown = await ctx.tenant.call("GET", "/network/999999/providers");
      assert.equal(listUnknown.statusCode, 404);
    });

    it("reads one network and answers 404 for an unknown one", async () => {
      const res = await ctx.tenant.call("GET", `/network/${networkId}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().name, "With providers");
      assert.match(res.json().created_at, /^\d{4}-\d{2}-\d{2}T/);
      assert.equal((await ctx.tenant.call("GET", "/network/999999")).statusCode, 404);
    });
  });
});
