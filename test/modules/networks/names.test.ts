import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { NETWORKS_CHANNEL } from "../../../src/modules/networks/names.js";
import type { Db } from "../../../src/platform/db/db.js";
import { startAppWithListener, type TestContext } from "../../helpers.js";

/** name-filtered listings served from each node's memory of the tenant's networks */
describe("network listings by name", () => {
  let ctx: TestContext;
  let listener: Db;
  let close: () => Promise<void>;
  before(async () => {
    ({ ctx, listener, close } = await startAppWithListener());
  });
  after(() => close());

  const names = async (query: string) => {
    const res = await ctx.tenant.call("GET", `/network/find-all?${query}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    return { total: body.total_count as number, names: body.data.map((n: { name: string }) => n.name) };
  };

  it("answers what SQL would, follows creates and renames at once, and announces each change", async () => {
    for (const name of ["North 100%", "north_2", "South", "Northern Lights", "Shamal الشمال"])
      assert.equal((await ctx.tenant.call("POST", "/network/create", { name })).statusCode, 201);
    assert.deepEqual(await names("name=NORTH"), {
      total: 3,
      names: ["North 100%", "north_2", "Northern Lights"],
    });
    // % and _ are letters, not wildcards
    assert.deepEqual((await names("name=100%25")).names, ["North 100%"]);
    assert.deepEqual((await names("name=h_")).names, ["north_2"]);
    assert.deepEqual((await names("name=الشمال")).names, ["Shamal الشمال"]);
    assert.deepEqual(await names("name=north&limit=1&skip=1"), { total: 3, names: ["north_2"] });

    const got: string[] = [];
    const stop = await listener.listen(NETWORKS_CHANNEL, (payload) => {
      if (payload === String(ctx.tenant.id)) got.push(payload);
    });
    try {
      const created = await ctx.tenant.call("POST", "/network/create", { name: "North Star" });
      assert.equal(created.statusCode, 201);
      assert.equal((await names("name=north")).total, 4, "the new network at once");
      const id = created.json().internal_id;
      assert.equal(
        (await ctx.tenant.call("PATCH", `/network/update/${id}`, { name: "Polaris" })).statusCode,
        200,
      );
      assert.equal((await names("name=north")).total, 3, "the rename at once");
      assert.deepEqual((await names("name=polaris")).names, ["Polaris"]);
      for (let waited = 0; got.length < 2 && waited < 3_000; waited += 50) await sleep(50);
      assert.equal(got.length, 2, "every node is told of both changes");
    } finally {
      await stop();
    }
  });
});
