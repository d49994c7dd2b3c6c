import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { findPriceInForce } from "../../../src/modules/price-lists/service.js";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "../../helpers.js";

const item = (erpId: string, overrides: Record<string, unknown> = {}) => ({
  department: "Radiology",
  provider_service_Code: "SVC-XR",
  provider_service_description: "Chest X-ray, two views",
  provider_service_type: "PROCEDURE",
  nphies_code: "71046",
  nphies_type: "procedures",
  price: 150.5,
  price_item_erp_id: erpId,
  date_start: "2025-01-01T00:00:00.000Z",
  date_end: "2025-12-31T23:59:59.999Z",
  ...overrides,
});

const OPTIONAL = {
  gross: 200,
  discount: 49.5,
  nphies_id: "NPH-ITEM-1",
  length_of_stay: "1",
  category: "OUTPATIENT",
};

const priceList = (erpId: string, overrides: Record<string, unknown> = {}) => ({
  start_date: "2025-01-01T00:00:00.000Z",
  end_date: "2025-12-31T23:59:59.999Z",
  provider_cchi_id: "CCHI-PL",
  price_list_erp_id: erpId,
  price_items: [
    item(`${erpId}-I1`, OPTIONAL),
    item(`${erpId}-I2`, { provider_service_Code: "SVC-CT", price: 900 }),
  ],
  ...overrides,
});

/** answers 201 or fails the test with the body */
async function created(call: Promise<LightMyRequestResponse>) {
  const res = await call;
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

function assertRefused(res: LightMyRequestResponse, status: number, code: string, detail?: string) {
  assert.equal(res.statusCode, status);
  const body = res.json();
  assert.equal(body.ErrorCode, code);
  if (detail !== undefined)
    assert.ok(
      body.details.some((d: string) => d.startsWith(detail)),
      `${JSON.stringify(body.details)} should name ${detail}`,
    );
}

describe("price list", () => {
  let ctx: TestContext;
  let providerId: number;
  const createProvider = async (tenant: TenantClient, cchi_no: string, nphies_id: string) =>
    (
      await created(
        tenant.call("POST", "/medical-provider/create", {
          name: "Clinic",
          city: "Riyadh",
          cchi_no,
          nphies_id,
        }),
      )
    ).internal_id as number;

  before(async () => {
    ctx = await startTestApp();
    providerId = await createProvider(ctx.tenant, "CCHI-PL", "NPH-PL");
  });
  after(() => ctx.close());

  describe("POST /price-list/create", () => {
    it("creates the list with its items and answers them with their ids", async () => {
      const body = await created(ctx.tenant.call("POST", "/price-list/create", priceList("PL-1")));
      const [first, second] = body.price_items;
      assert.equal(typeof body.id, "number");
      assert.equal(typeof first.id, "number");
      assert.deepEqual(
        {
          ...body,
          id: 0,
          price_items: [
            { ...first, id: 0 },
            { ...second, id: 0 },
          ],
        },
        {
          id: 0,
          start_date: "2025-01-01T00:00:00.000Z",
          end_date: "2025-12-31T23:59:59.999Z",
          price_list_erp_id: "PL-1",
          price_items: [
            { id: 0, ...item("PL-1-I1", OPTIONAL) },
            { id: 0, ...item("PL-1-I2", { provider_service_Code: "SVC-CT", price: 900 }) },
          ],
          code: 201,
          message: "Price list created successfully",
        },
      );
      const read = (await ctx.tenant.call("GET", "/price-list/PL-1")).json();
      assert.deepEqual(read.price_items, body.price_items);
      assert.equal(read.provider_cchi_no, "CCHI-PL");
      const rows = await ctx.db.query<{ provider_service_code: string; price: string; gross: string | null }>(
        `SELECT i.provider_service_code, i.price, i.gross FROM price_items i
         JOIN price_lists l ON l.id = i.price_list_id WHERE l.tenant_id = $1 AND l.price_list_erp_id = 'PL-1' ORDER BY i.id`,
        [ctx.tenant.id],
      );
      assert.deepEqual(rows, [
        { provider_service_code: "SVC-XR", price: "150.50", gross: "200.00" },
        { provider_service_code: "SVC-CT", price: "900.00", gross: null },
      ]);
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "price_list", "PL-1"), [
        "price-list.create",
      ]);
    });

    it("finds the provider by its NPHIES code when no CCHI number matches, and accepts no items", async () => {
      const body = await created(
        ctx.tenant.call(
          "POST",
          "/price-list/create",
          priceList("PL-NPH", { provider_cchi_id: "NPH-PL", price_items: [] }),
        ),
      );
      assert.deepEqual(body.price_items, []);
      assert.equal((await ctx.tenant.call("GET", "/price-list/PL-NPH")).json().provider_cchi_no, "CCHI-PL");
    });

    it("answers 404 E_EMP_01 for an unknown provider, storing nothing", async () => {
      const res = await ctx.tenant.call(
        "POST",
        "/price-list/create",
        priceList("PL-NOPROV", { provider_cchi_id: "X" }),
      );
      assertRefused(res, 404, "E_EMP_01");
      assertRefused(await ctx.tenant.call("GET", "/price-list/PL-NOPROV"), 404, "E_EPL_01");
    });

    it("answers 409 E_CONFLICT_409 naming an existing price_list_erp_id", async () => {
      const res = await ctx.tenant.call("POST", "/price-list/create", priceList("PL-1"));
      assertRefused(res, 409, "E_CONFLICT_409");
      assert.match(res.json().message, /PL-1/);
    });

    it("answers 409 E_CONFLICT_409 naming an existing price_item_erp_id, and creates no list", async () => {
      const res = await ctx.tenant.call(
        "POST",
        "/price-list/create",
        priceList("PL-DUPITEM", { price_items: [item("NEW-ITEM"), item("PL-1-I2")] }),
      );
      assertRefused(res, 409, "E_CONFLICT_409");
      assert.equal(res.json().message, "Price item PL-1-I2 already exists");
      assert.equal((await ctx.tenant.call("GET", "/price-list/PL-DUPITEM")).statusCode, 404);
    });

    const withItem = (overrides: Record<string, unknown>) => ({ price_items: [item("BAD-I", overrides)] });
    for (const [label, overrides, detail] of [
      ["a missing start_date", { start_date: undefined }, "start_date is required"],
      ["a missing provider_cchi_id", { provider_cchi_id: undefined }, "provider_cchi_id is required"],
      ["missing price_items", { price_items: undefined }, "price_items is required"],
      ["an item without price", withItem({ price: undefined }), "price_items[0].price is required"],
      [
        "a department over 100 characters",
        withItem({ department: "d".repeat(101) }),
        "price_items[0].department must not have more than 100",
      ],
      [
        "a provider_service_Code over 50 characters",
        withItem({ provider_service_Code: "c".repeat(51) }),
        "price_items[0].provider_service_Code must not have more than 50",
      ],
      [
        "a length_of_stay over 20 characters",
        withItem({ length_of_stay: "1".repeat(21) }),
        "price_items[0].length_of_stay must not have more than 20",
      ],
      [
        "a price with 3 decimals",
        withItem({ price: 10.125 }),
        "price_items[0].price must have at most 2 decimals",
      ],
      [
        "a discount with 3 decimals",
        withItem({ discount: 0.001 }),
        "price_items[0].discount must have at most 2 decimals",
      ],
      ["a negative price", withItem({ price: -1 }), "price_items[0].price must be >= 0"],
      ["a price given as text", withItem({ price: "10" }), "price_items[0].price must be number"],
      ["a date without time", { start_date: "2025-01-01" }, "start_date must be a date-time"],
      [
        "an item date without milliseconds",
        withItem({ date_end: "2025-12-31T00:00:00Z" }),
        "price_items[0].date_end must be a date-time",
      ],
      [
        "an end_date before start_date",
        { end_date: "2024-12-31T23:59:59.999Z" },
        "end_date must not be before start_date",
      ],
      [
        "an item ending before it starts",
        { price_items: [item("A"), item("B"), item("C", { date_end: "2024-01-01T00:00:00.000Z" })] },
        "price_items[2].date_end must not be before date_start",
      ],
      [
        "a price_item_erp_id twice in the request",
        { price_items: [item("A"), item("B"), item("C"), item("A")] },
        "price_items[3].price_item_erp_id duplicates price_items[0]",
      ],
    ] as const) {
      it(`answers 400 E_BAD_REQUEST_400 naming the field for ${label}`, async () => {
        const res = await ctx.tenant.call("POST", "/price-list/create", priceList("PL-BAD", overrides));
        assertRefused(res, 400, "E_BAD_REQUEST_400", detail);
      });
    }

    it("answers 401 without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/${ctx.tenant.name}/v4.0/health/price-list/create`,
        payload: priceList("PL-NOKEY"),
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().ErrorCode, "API key is required");
    });

    it("lets exactly one of ten concurrent creates of one price_list_erp_id succeed", async () => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => ctx.tenant.call("POST", "/price-list/create", priceList("PL-RACE"))),
      );
      const statuses = responses.map((res) => res.statusCode).sort();
      assert.deepEqual(statuses, [201, ...Array(9).fill(409)]);
      for (const res of responses.filter((r) => r.statusCode === 409))
        assert.equal(res.json().ErrorCode, "E_CONFLICT_409");
      assert.equal((await ctx.tenant.call("GET", "/price-list/PL-RACE")).json().price_items.length, 2);
    });
  });

  describe("POST /price-list/items/create", () => {
    it("adds items and answers them, without the optional fields not sent", async () => {
      const body = await created(
        ctx.tenant.call("POST", "/price-list/items/create", {
          price_list_erp_id: "PL-NPH",
          price_items: [item("ADD-1"), item("ADD-2", { gross: 10.1 })],
        }),
      );
      assert.equal(body.price_list_erp_id, "PL-NPH");
      assert.deepEqual(
        body.created_items.map(({ id, ...rest }: { id: number }) => ({ id: typeof id, ...rest })),
        [
          { id: "number", ...item("ADD-1") },
          { id: "number", ...item("ADD-2", { gross: 10.1 }) },
        ],
      );
      assert.deepEqual([body.code, body.message], [201, "Price items created successfully"]);
      const read = (await ctx.tenant.call("GET", "/price-list/PL-NPH")).json();
      assert.deepEqual(read.price_items, body.created_items);
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "price_list", "PL-NPH"), [
        "price-list.create",
        "price-list.items.create",
      ]);
    });

    it("answers 404 E_EPL_01 for an unknown price list", async () => {
      const res = await ctx.tenant.call("POST", "/price-list/items/create", {
        price_list_erp_id: "PL-NONE",
        price_items: [item("ORPHAN")],
      });
      assertRefused(res, 404, "E_EPL_01");
    });

    it("answers 409 E_CONFLICT_409 when one item exists, adding none of them", async () => {
      const res = await ctx.tenant.call("POST", "/price-list/items/create", {
        price_list_erp_id: "PL-NPH",
        price_items: [item("ADD-3"), item("ADD-1")],
      });
      assertRefused(res, 409, "E_CONFLICT_409");
      assert.match(res.json().message, /ADD-1/);
      assert.equal((await ctx.tenant.call("GET", "/price-list/PL-NPH")).json().price_items.length, 2);
    });

    for (const [label, items, detail] of [
      ["no items", [], "price_items must not have fewer than 1 items"],
      [
        "a duplicate id",
        [item("D-1"), item("D-1")],
        "price_items[1].price_item_erp_id duplicates price_items[0]",
      ],
      [
        "a bad date order",
        [item("D-2", { date_start: "2026-01-01T00:00:00.000Z" })],
        "price_items[0].date_end must not be before",
      ],
    ] as const) {
      it(`answers 400 E_BAD_REQUEST_400 for ${label}`, async () => {
        const res = await ctx.tenant.call("POST", "/price-list/items/create", {
          price_list_erp_id: "PL-NPH",
          price_items: items,
        });
        assertRefused(res, 400, "E_BAD_REQUEST_400", detail);
      });
    }
  });

  describe("PATCH /price-list/item/update/:price_item_erp_id", () => {
    const stored = async (erpId: string) =>
      (await ctx.tenant.call("GET", "/price-list/PL-1"))
        .json()
        .price_items.find((i: { price_item_erp_id: string }) => i.price_item_erp_id === erpId);

    it("changes only the fields sent", async () => {
      const res = await ctx.tenant.call("PATCH", "/price-list/item/update/PL-1-I1", { price: 175.25 });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { code: 200, message: "Price item updated successfully" });
      const { id: _id, ...afterPrice } = await stored("PL-1-I1");
      assert.deepEqual(afterPrice, item("PL-1-I1", { ...OPTIONAL, price: 175.25 }));

      await ctx.tenant.call("PATCH", "/price-list/item/update/PL-1-I1", {
        discount: 0,
        end_date: "2025-06-30T00:00:00.000Z",
      });
      const { id: _same, ...afterEnd } = await stored("PL-1-I1");
      const expected = { ...OPTIONAL, price: 175.25, discount: 0, date_end: "2025-06-30T00:00:00.000Z" };
      assert.deepEqual(afterEnd, item("PL-1-I1", expected));
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "price_item", "PL-1-I1"), [
        "price-item.update",
        "price-item.update",
      ]);
    });

    it("answers 404 E_EPI_01 for an unknown item", async () => {
      assertRefused(
        await ctx.tenant.call("PATCH", "/price-list/item/update/NOPE", { price: 1 }),
        404,
        "E_EPI_01",
      );
    });

    for (const [label, body, detail] of [
      ["an empty body", {}, "at least one of price, gross, discount, end_date is required"],
      [
        "an end_date before the item's date_start",
        { end_date: "2024-12-31T00:00:00.000Z" },
        "end_date must not be before date_start",
      ],
      ["a price with 3 decimals", { price: 1.005 }, "price must have at most 2 decimals"],
      ["a negative gross", { gross: -0.01 }, "gross must be >= 0"],
      ["a bad end_date", { end_date: "2025-02-30T00:00:00.000Z" }, "end_date must be a date-time"],
    ] as const) {
      it(`answers 400 E_BAD_REQUEST_400 for ${label}, changing nothing`, async () => {
        const before = await stored("PL-1-I2");
        const res = await ctx.tenant.call("PATCH", "/price-list/item/update/PL-1-I2", body);
        assertRefused(res, 400, "E_BAD_REQUEST_400", detail);
        assert.deepEqual(await stored("PL-1-I2"), before);
      });
    }

    it("answers 401 without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "PATCH",
        url: `/${ctx.tenant.name}/v4.0/health/price-list/item/update/PL-1-I2`,
        payload: { price: 1 },
      });
      assert.equal(res.statusCode, 401);
    });
  });

  it("GET /price-list/:price_list_erp_id answers 404 E_EPL_01 for an unknown list", async () => {
    assertRefused(await ctx.tenant.call("GET", "/price-list/PL-NONE"), 404, "E_EPL_01");
  });

  it("keeps each tenant's price lists, items and providers to itself", async () => {
    const other = await ctx.newTenant();
    assertRefused(await other.call("GET", "/price-list/PL-1"), 404, "E_EPL_01");
    assertRefused(
      await other.call("POST", "/price-list/items/create", {
        price_list_erp_id: "PL-1",
        price_items: [item("X-1")],
      }),
      404,
      "E_EPL_01",
    );
    assertRefused(
      await other.call("PATCH", "/price-list/item/update/PL-1-I2", { price: 1 }),
      404,
      "E_EPI_01",
    );
    assertRefused(await other.call("POST", "/price-list/create", priceList("PL-OTHER")), 404, "E_EMP_01");
    // the same ids are free in another tenant
    await createProvider(other, "CCHI-PL", "NPH-PL");
    await created(other.call("POST", "/price-list/create", priceList("PL-1")));
    assert.equal((await ctx.tenant.call("GET", "/price-list/PL-1")).json().price_items[0].price, 175.25);
  });

  describe("findPriceInForce", () => {
    let otherProviderId: number;
    const list = (erpId: string, start: string, end: string, items: unknown[]) =>
      created(
        ctx.tenant.call("POST", "/price-list/create", {
          ...priceList(erpId, { provider_cchi_id: "CCHI-PIF" }),
          start_date: `${start}T00:00:00.000Z`,
          end_date: `${end}T00:00:00.000Z`,
          price_items: items,
        }),
      );
    const priced = (erpId: string, code: string, nphies: string, price: number, start: string, end: string) =>
      item(erpId, {
        provider_service_Code: code,
        nphies_code: nphies,
        price,
        date_start: `${start}T00:00:00.000Z`,
        date_end: `${end}T00:00:00.000Z`,
      });
    const priceAt = async (
      code: string,
      at: string,
      provider = otherProviderId,
      tenantId = ctx.tenant.id,
    ) => {
      const found = await findPriceInForce(ctx.db, tenantId, {
        providerId: provider,
        code,
        at: new Date(`${at}T12:00:00.000Z`),
      });
      return found && [found.price_list_erp_id, found.price];
    };

    before(async () => {
      otherProviderId = await createProvider(ctx.tenant, "CCHI-PIF", "NPH-PIF");
      await list("PIF-A", "2024-01-01", "2024-12-31", [
        priced("A1", "SVC-1", "N-1", 100, "2024-01-01", "2024-12-31"),
        priced("A2", "SVC-2", "N-2", 200, "2024-01-01", "2024-12-31"),
      ]);
      await list("PIF-B", "2024-06-01", "2024-12-31", [
        priced("B1", "SVC-1", "N-1", 120, "2024-06-01", "2024-12-31"),
        priced("B2", "SVC-7", "SVC-2", 999, "2024-06-01", "2024-12-31"),
      ]);
      await list("PIF-C", "2025-01-01", "2025-12-31", [
        priced("C1", "SVC-3", "N-3", 10, "2025-01-01", "2025-06-30"),
        priced("C2", "SVC-3", "N-3", 12, "2025-03-01", "2025-12-31"),
      ]);
      await list("PIF-D", "2026-01-01", "2026-12-31", [
        priced("D1", "SVC-4", "N-4", 40, "2026-06-01", "2026-12-31"),
      ]);
    });

    it("answers the item with its list, prices as numbers and dates as DATETIME", async () => {
      const found = await findPriceInForce(ctx.db, ctx.tenant.id, {
        providerId: otherProviderId,
        code: "SVC-1",
        at: new Date("2024-03-01T00:00:00.000Z"),
      });
      const { id, ...rest } = found ?? { id: undefined };
      assert.equal(typeof id, "number");
      assert.deepEqual(rest, {
        ...priced("A1", "SVC-1", "N-1", 100, "2024-01-01", "2024-12-31"),
        price_list_erp_id: "PIF-A",
      });
    });

    it("prefers the list that started last, then the item that started last", async () => {
      assert.deepEqual(await priceAt("SVC-1", "2024-07-01"), ["PIF-B", 120]);
      assert.deepEqual(await priceAt("SVC-3", "2025-02-01"), ["PIF-C", 10]);
      assert.deepEqual(await priceAt("SVC-3", "2025-04-01"), ["PIF-C", 12]);
      assert.deepEqual(await priceAt("SVC-3", "2025-08-01"), ["PIF-C", 12]);
    });

    it("matches the NPHIES code too, a provider service code match first", async () => {
      assert.deepEqual(await priceAt("N-1", "2024-07-01"), ["PIF-B", 120]);
      assert.deepEqual(await priceAt("SVC-2", "2024-07-01"), ["PIF-A", 200]);
    });

    it("answers undefined when no list, no item, provider or tenant matches", async () => {
      assert.equal(await priceAt("SVC-1", "2025-01-15"), undefined);
      assert.equal(await priceAt("SVC-4", "2026-02-01"), undefined);
      assert.equal(await priceAt("SVC-9", "2024-07-01"), undefined);
      assert.equal(await priceAt("SVC-1", "2024-07-01", providerId), undefined);
      assert.equal(await priceAt("SVC-1", "2024-07-01", otherProviderId, ctx.tenant.id + 100000), undefined);
    });
  });
});
