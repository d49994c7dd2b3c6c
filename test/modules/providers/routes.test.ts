import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { findCity } from "../../../src/reference/cities.js";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";

describe("medical provider", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  const provider = (overrides: Record<string, unknown> = {}) => ({
    name: "King Fahad Clinic",
    city: "Riyadh",
    cchi_no: "CCHI-100",
    nphies_id: "NPH-1",
    phone_number: "+966110000000",
    type: "CLINIC",
    lng: "46.6753",
    lat: "24.7136",
    ...overrides,
  });

  describe("POST /medical-provider/create", () => {
    it("creates a provider and answers its internal id and CCHI number", async () => {
      const res = await ctx.tenant.call("POST", "/medical-provider/create", provider());
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.equal(typeof body.internal_id, "number");
      assert.deepEqual(
        { cchi_no: body.cchi_no, code: body.code, message: body.message },
        { cchi_no: "CCHI-100", code: 201, message: "Medical provider created successfully" },
      );
      const stored = (await ctx.tenant.call("GET", "/medical-provider/CCHI-100")).json();
      assert.equal(stored.internal_id, body.internal_id);
      assert.equal(stored.type, "CLINIC");
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "medical_provider", "CCHI-100"), [
        "medical_provider.create",
      ]);
    });

    it("matches the city case-insensitively, in English or Arabic, and stores its English name", async () => {
      for (const [cchi_no, city, stored] of [
        ["CCHI-AR", "جدة", "Jeddah"],
        ["CCHI-LOWER", "riyadh", "Riyadh"],
        ["CCHI-ALIAS", "MECCA", "Makkah"],
        ["CCHI-HAMZA", "الاحساء", "Al Ahsa"],
      ] as const) {
        const res = await ctx.tenant.call("POST", "/medical-provider/create", { name: "P", city, cchi_no });
        assert.equal(res.statusCode, 201, `${city}: ${res.body}`);
        const got = (await ctx.tenant.call("GET", `/medical-provider/${cchi_no}`)).json();
        assert.equal(got.city, findCity(stored)?.nameEn);
      }
    });

    it("answers 404 E_CITY_01 for a city that does not exist, and stores nothing", async () => {
      const res = await ctx.tenant.call(
        "POST",
        "/medical-provider/create",
        provider({ cchi_no: "CCHI-X", city: "Atlantis" }),
      );
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "E_CITY_01");
      assert.equal((await ctx.tenant.call("GET", "/medical-provider/CCHI-X")).statusCode, 404);
    });

    it("answers 409 E_EMP_02 when the CCHI number is in use", async () => {
      const res = await ctx.tenant.call("POST", "/medical-provider/create", provider({ name: "Other" }));
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_EMP_02");
      assert.equal(
        (await ctx.tenant.call("GET", "/medical-provider/CCHI-100")).json().name,
        "King Fahad Clinic",
      );
    });

    for (const [label, overrides, detail] of [
      ["a missing name", { name: undefined }, "name is required"],
      ["a missing city", { city: undefined }, "city is required"],
      ["a missing cchi_no", { cchi_no: undefined }, "cchi_no is required"],
      ["an unknown type", { type: "SPA" }, "type must be one of: "],
      [
        "a cchi_no over 50 characters",
        { cchi_no: "c".repeat(51) },
        "cchi_no must not have more than 50 characters",
      ],
      [
        "a city over 100 characters",
        { city: "c".repeat(101) },
        "city must not have more than 100 characters",
      ],
      [
        "an nphies_id over 50 characters",
        { nphies_id: "n".repeat(51) },
        "nphies_id must not have more than 50",
      ],
      ["a numeric lat", { lat: 24.7 }, "lat must be string"],
    ] as const) {
      it(`answers 400 E_BAD_REQUEST_400 for ${label}`, async () => {
        const res = await ctx.tenant.call(
          "POST",
          "/medical-provider/create",
          provider({ cchi_no: "CCHI-BAD", ...overrides }),
        );
        assert.equal(res.statusCode, 400);
        const body = res.json();
        assert.equal(body.ErrorCode, "E_BAD_REQUEST_400");
        assert.ok(
          body.details.some((d: string) => d.startsWith(detail)),
          `${JSON.stringify(body.details)} should name ${detail}`,
        );
      });
    }

    it("answers 401 without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/${ctx.tenant.name}/v4.0/health/medical-provider/create`,
        payload: provider({ cchi_no: "CCHI-NOKEY" }),
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().ErrorCode, "API key is required");
    });
  });

  describe("PATCH /medical-provider/:cchi_no", () => {
    before(async () => {
      await ctx.tenant.call(
        "POST",
        "/medical-provider/create",
        provider({ cchi_no: "CCHI-UPD", name: "Before" }),
      );
    });

    it("changes only the fields sent and answers the whole provider", async () => {
      const res = await ctx.tenant.call("PATCH", "/medical-provider/CCHI-UPD", {
        name: "After",
        city: "الدمام",
      });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(
        { ...body, internal_id: typeof body.internal_id },
        {
          internal_id: "number",
          name: "After",
          nphies_id: "NPH-1",
          phone_number: "+966110000000",
          city: "Dammam",
          cchi_no: "CCHI-UPD",
          type: "CLINIC",
          lng: "46.6753",
          lat: "24.7136",
          code: 200,
          message: "Medical provider updated successfully",
        },
      );
    });

    it("answers 404 E_EMP_01 for an unknown provider", async () => {
      const res = await ctx.tenant.call("PATCH", "/medical-provider/NOPE", { name: "x" });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "E_EMP_01");
    });

    it("answers 404 E_CITY_01 for an unknown city, changing nothing", async () => {
      const res = await ctx.tenant.call("PATCH", "/medical-provider/CCHI-UPD", {
        name: "Changed",
        city: "Gotham",
      });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "E_CITY_01");
      assert.equal((await ctx.tenant.call("GET", "/medical-provider/CCHI-UPD")).json().name, "After");
    });

    it("answers 409 E_EMP_02 when moving to a CCHI number in use", async () => {
      const res = await ctx.tenant.call("PATCH", "/medical-provider/CCHI-UPD", { cchi_no: "CCHI-100" });
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_EMP_02");
    });

    it("answers 400 E_BAD_REQUEST_400 for an invalid field", async () => {
      const res = await ctx.tenant.call("PATCH", "/medical-provider/CCHI-UPD", { type: "CASINO" });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
    });

    it("answers 401 with a wrong access-key", async () => {
      const res = await ctx.app.inject({
        method: "PATCH",
        url: `/${ctx.tenant.name}/v4.0/health/medical-provider/CCHI-UPD`,
        headers: { "access-key": "wrong" },
        payload: { name: "x" },
      });
      assert.equal(res.statusCode, 401);
    });
  });
});

describe("built-in Saudi cities", () => {
  it("covers the 13 regional capitals in English and Arabic", () => {
    const capitals = [
      ["Riyadh", "الرياض"],
      ["Makkah", "مكة المكرمة"],
      ["Madinah", "المدينة المنورة"],
      ["Buraydah", "بريدة"],
      ["Dammam", "الدمام"],
      ["Abha", "أبها"],
      ["Tabuk", "تبوك"],
      ["Hail", "حائل"],
      ["Arar", "عرعر"],
      ["Jazan", "جازان"],
      ["Najran", "نجران"],
      ["Al Bahah", "الباحة"],
      ["Sakakah", "سكاكا"],
    ];
    for (const [english, arabic] of capitals) {
      assert.equal(findCity(english as string)?.nameEn, english);
      assert.equal(findCity(arabic as string)?.nameEn, english, arabic);
    }
    assert.equal(findCity("Springfield"), undefined);
  });
});
