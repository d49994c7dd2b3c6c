import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";

describe("tenant isolation", () => {
  let ctx: TestContext;
  let a: TenantClient;
  let b: TenantClient;
  let networkOfA: number;
  before(async () => {
    ctx = await startTestApp();
    a = ctx.tenant;
    b = await ctx.newTenant();
    networkOfA = (await a.call("POST", "/network/create", { name: "A only" })).json().internal_id;
    await a.call("POST", "/medical-provider/create", { name: "A clinic", city: "Riyadh", cchi_no: "A-1" });
    await a.call("POST", "/member/create", {
      member_id: "A-M1",
      national_id: "1",
      gender: "MALE",
      marital_status: "SINGLE",
      date_of_birth: "1980-01-01T00:00:00.000Z",
    });
    await a.call("POST", "/policy-holder/create", {
      ph_erp_id: "A-PH",
      name: "A holder",
      insurance_type: "NORMAL",
    });
    await a.call("POST", "/user/create", { username: "a.reviewer" });
  });
  after(() => ctx.close());

  it("a key used under another tenant's path is 401, even on a route that exists", async () => {
    const res = await ctx.app.inject({
      method: "GET",
      url: `/${b.name}/v4.0/health/network/find-all`,
      headers: { "access-key": a.apiKey },
    });
    assert.equal(res.statusCode, 401);
    const unknownTenant = await ctx.app.inject({
      method: "GET",
      url: "/no-such-tenant/v4.0/health/network/find-all",
      headers: { "access-key": a.apiKey },
    });
    assert.equal(unknownTenant.statusCode, 401);
  });

  it("tenant B sees none of A's data", async () => {
    assert.equal((await b.call("GET", "/network/find-all")).json().total_count, 0);
    assert.equal((await b.call("GET", `/network/${networkOfA}`)).statusCode, 404);
    assert.equal((await b.call("GET", "/medical-provider/A-1")).statusCode, 404);
    assert.equal((await b.call("GET", "/member/A-M1")).statusCode, 404);
    assert.equal((await b.call("GET", "/policy-holder/A-PH")).statusCode, 404);
    assert.equal((await b.call("GET", "/user/find-all")).json().total_count, 0);
  });

  it("tenant B changes none of A's data", async () => {
    assert.equal(
      (await b.call("PATCH", `/network/update/${networkOfA}`, { name: "hijacked" })).statusCode,
      404,
    );
    assert.equal((await b.call("PATCH", "/medical-provider/A-1", { name: "hijacked" })).statusCode, 404);
    assert.equal((await b.call("PATCH", "/member/A-M1", { name: "hijacked" })).statusCode, 404);
    assert.equal(
      (await b.call("PATCH", "/policy-holder/update", { identifier: "A-PH", name: "hijacked" })).statusCode,
      404,
    );
    assert.equal((await a.call("GET", `/network/${networkOfA}`)).json().name, "A only");
    assert.equal((await a.call("GET", "/medical-provider/A-1")).json().name, "A clinic");
    assert.equal((await a.call("GET", "/member/A-M1")).json().name, null);
    assert.equal((await a.call("GET", "/policy-holder/A-PH")).json().data.name, "A holder");
  });

  it("fields a body may not set are ignored, never written", async () => {
    const res = await a.call("PATCH", "/medical-provider/A-1", {
      phone_number: "0110000000",
      tenant_id: b.id,
      "city = 'x', tenant_id": b.id,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().phone_number, "0110000000");
    assert.equal((await a.call("GET", "/medical-provider/A-1")).json().city, "Riyadh");
    assert.equal((await b.call("GET", "/medical-provider/A-1")).statusCode, 404);
    const member = await a.call("PATCH", "/member/A-M1", {
      member_id: "B-M1",
      tenant_id: b.id,
      name: "Kept",
    });
    assert.deepEqual([member.statusCode, member.json().member_id], [200, "A-M1"]);
  });

  it("tenant B cannot put A's provider in its network", async () => {
    const networkOfB = (await b.call("POST", "/network/create", { name: "B net" })).json().internal_id;
    const res = await b.call("POST", `/network/${networkOfB}/providers`, { cchi_no: "A-1" });
    assert.deepEqual([res.statusCode, res.json().ErrorCode], [404, "E_EMP_01"]);
    const intoA = await b.call("POST", `/network/${networkOfA}/providers`, { cchi_no: "A-1" });
    assert.equal(intoA.statusCode, 404);
  });

  it("unique keys are per tenant: B may reuse A's names", async () => {
    assert.equal((await b.call("POST", "/network/create", { name: "A only" })).statusCode, 201);
    assert.equal(
      (await b.call("POST", "/medical-provider/create", { name: "B clinic", city: "Jeddah", cchi_no: "A-1" }))
        .statusCode,
      201,
    );
    assert.equal(
      (
        await b.call("POST", "/policy-holder/create", {
          ph_erp_id: "A-PH",
          name: "A holder",
          insurance_type: "VIP",
        })
      ).statusCode,
      201,
    );
    assert.equal((await a.call("GET", "/policy-holder/A-PH")).json().data.insurance_type, "NORMAL");
  });

  it("a code set loaded by A does not restrict B", async () => {
    await a.call("POST", "/code-set/icd10/import", [{ code: "R51", description: "Headache" }]);
    assert.equal((await a.call("GET", "/code-set/icd10/J45.909")).statusCode, 404);
    assert.equal((await b.call("GET", "/code-set/icd10/J45.909")).json().matched_by, "structure");
  });
});
