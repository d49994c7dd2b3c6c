import type { Queryable } from "../../platform/db/db.js";
import { qualify, updateTenantRow } from "../../platform/db/sql.js";

export interface PriceListRow {
  id: number;
  price_list_erp_id: string;
  provider_id: number;
  start_date: Date;
  end_date: Date;
}

/** a price item as stored: money is NUMERIC text, optional fields are null */
export interface PriceItemRow {
  id: number;
  price_item_erp_id: string;
  department: string;
  provider_service_code: string;
  provider_service_description: string;
  provider_service_type: string;
  nphies_code: string;
  nphies_type: string;
  price: string;
  date_start: Date;
  date_end: Date;
  gross: string | null;
  discount: string | null;
  nphies_id: string | null;
  length_of_stay: string | null;
  category: string | null;
}

/** an item to insert: money and dates as the client sent them (numbers, DATETIME text) */
export type NewPriceItem = Omit<
  PriceItemRow,
  "id" | "price" | "gross" | "discount" | "date_start" | "date_end"
> & {
  price: number;
  gross: number | null;
  discount: number | null;
  date_start: string;
  date_end: string;
};

const LIST_COLUMNS = "id, price_list_erp_id, provider_id, start_date, end_date";

/** the inserted columns with their array types, in one order for unnest */
const ITEM_INPUTS = [
  ["price_item_erp_id", "text"],
  ["department", "text"],
  ["provider_service_code", "text"],
  ["provider_service_description", "text"],
  ["provider_service_type", "text"],
  ["nphies_code", "text"],
  ["nphies_type", "text"],
  ["price", "numeric"],
  ["date_start", "timestamptz"],
  ["date_end", "timestamptz"],
  ["gross", "numeric"],
  ["discount", "numeric"],
  ["nphies_id", "text"],
  ["length_of_stay", "text"],
  ["category", "text"],
] as const satisfies readonly (readonly [keyof NewPriceItem, string])[];

const ITEM_COLUMNS = ["id", ...ITEM_INPUTS.map(([column]) => column)].join(", ");

export const priceListRepo = {
  /**
   * The provider a price list names: by CCHI number first, else by its NPHIES code. The second branch runs
   * only when the first finds nothing (LIMIT stops the Append); NPHIES codes are not unique, so the oldest wins.
   */
  async findProviderId(db: Queryable, tenantId: number, cchiOrNphies: string): Promise<number | undefined> {
    const rows = await db.query<{ id: number }>(
      `SELECT id FROM medical_providers WHERE tenant_id = $1 AND cchi_no = $2
       UNION ALL
       (SELECT id FROM medical_providers WHERE tenant_id = $1 AND nphies_id = $2 ORDER BY id LIMIT 1)
       LIMIT 1`,
      [tenantId, cchiOrNphies],
    );
    return rows[0]?.id;
  },

  async insertList(
    tx: Queryable,
    tenantId: number,
    list: { price_list_erp_id: string; provider_id: number; start_date: string; end_date: string },
  ): Promise<PriceListRow> {
    const rows = await tx.query<PriceListRow>(
      `INSERT INTO price_lists (tenant_id, price_list_erp_id, provider_id, start_date, end_date)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${LIST_COLUMNS}`,
      [tenantId, list.price_list_erp_id, list.provider_id, list.start_date, list.end_date],
    );
    return rows[0] as PriceListRow;
  },

  /** the list with its provider's CCHI number */
  async findListByErpId(
    db: Queryable,
    tenantId: number,
    erpId: string,
  ): Promise<(PriceListRow & { provider_cchi_no: string }) | undefined> {
    const rows = await db.query<PriceListRow & { provider_cchi_no: string }>(
      `SELECT l.id, l.price_list_erp_id, l.provider_id, l.start_date, l.end_date, p.cchi_no AS provider_cchi_no
       FROM price_lists l JOIN medical_providers p ON p.id = l.provider_id
       WHERE l.tenant_id = $1 AND l.price_list_erp_id = $2`,
      [tenantId, erpId],
    );
    return rows[0];
  },

  /** all items in one statement, one array per column; answered in the order given */
  async insertItems(
    tx: Queryable,
    tenantId: number,
    priceListId: number,
    items: NewPriceItem[],
  ): Promise<PriceItemRow[]> {
    if (items.length === 0) return [];
    const columns = ITEM_INPUTS.map(([column]) => column).join(", ");
    const arrays = ITEM_INPUTS.map(([, type], index) => `$${index + 3}::${type}[]`).join(", ");
    return tx.query<PriceItemRow>(
      `WITH inserted AS (
         INSERT INTO price_items (tenant_id, price_list_id, ${columns})
         SELECT $1, $2, ${columns} FROM unnest(${arrays}) WITH ORDINALITY AS given (${columns}, position)
         ORDER BY position
         RETURNING ${ITEM_COLUMNS})
       SELECT ${ITEM_COLUMNS} FROM inserted ORDER BY id`,
      [tenantId, priceListId, ...ITEM_INPUTS.map(([column]) => items.map((item) => item[column]))],
    );
  },

  /** which of these item ids the tenant already uses */
  async findTakenItemErpIds(db: Queryable, tenantId: number, erpIds: string[]): Promise<string[]> {
    const rows = await db.query<{ price_item_erp_id: string }>(
      `SELECT price_item_erp_id FROM price_items WHERE tenant_id = $1 AND price_item_erp_id = ANY ($2::text[])`,
      [tenantId, erpIds],
    );
    return rows.map((row) => row.price_item_erp_id);
  },

  listItems(db: Queryable, priceListId: number): Promise<PriceItemRow[]> {
    return db.query<PriceItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM price_items WHERE price_list_id = $1 ORDER BY id`,
      [priceListId],
    );
  },

  /** the item, locked until the transaction ends, so the values audited as before are the ones replaced */
  async lockItemByErpId(tx: Queryable, tenantId: number, erpId: string): Promise<PriceItemRow | undefined> {
    const rows = await tx.query<PriceItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM price_items WHERE tenant_id = $1 AND price_item_erp_id = $2 FOR UPDATE`,
      [tenantId, erpId],
    );
    return rows[0];
  },

  /** changes only the fields given (the caller has locked the item) */
  async updateItem(
    tx: Queryable,
    tenantId: number,
    itemId: number,
    changes: { price?: number; gross?: number; discount?: number; date_end?: string },
  ): Promise<void> {
    const target = {
      table: "price_items",
      key: "id",
      columns: "id",
      writable: ["price", "gross", "discount", "date_end"],
    };
    await updateTenantRow(tx, target, tenantId, itemId, changes);
  },

  /**
   * The item in force for a provider's service at one instant: its list and itself both cover `at`, its
   * provider_service_code or nphies_code is `code`. A provider-code match beats an NPHIES-code match,
   * then the newest list, then the newest item.
   */
  /**
   * For each item (by position), the price in force at `at` at the provider: matched by the provider's
   * service code first, else by the NPHIES code; then the latest list, then the latest item.
   */
  async findInForceForItems(
    db: Queryable,
    tenantId: number,
    providerId: number,
    items: readonly { serviceCode: string; nphiesCode: string }[],
    at: Date,
  ): Promise<Map<number, { price: string; price_list_erp_id: string; price_item_erp_id: string }>> {
    const rows = await db.query<{
      ord: number;
      price: string;
      price_list_erp_id: string;
      price_item_erp_id: string;
    }>(
      `SELECT DISTINCT ON (c.ord) c.ord, i.price::text, l.price_list_erp_id, i.price_item_erp_id
       FROM json_to_recordset($3::json) AS c (ord integer, service_code text, nphies_code text)
       JOIN price_lists l ON l.tenant_id = $1 AND l.provider_id = $2
         AND l.start_date <= $4::timestamptz AND l.end_date >= $4::timestamptz
       JOIN price_items i ON i.price_list_id = l.id
         AND i.date_start <= $4::timestamptz AND i.date_end >= $4::timestamptz
         AND (i.provider_service_code = c.service_code OR i.nphies_code = c.nphies_code)
       ORDER BY c.ord, i.provider_service_code = c.service_code DESC, l.start_date DESC, i.date_start DESC, i.id DESC`,
      [
        tenantId,
        providerId,
        JSON.stringify(
          items.map((item, ord) => ({ ord, service_code: item.serviceCode, nphies_code: item.nphiesCode })),
        ),
        at,
      ],
    );
    return new Map(rows.map(({ ord, ...price }) => [ord, price]));
  },

  async findInForce(
    db: Queryable,
    tenantId: number,
    query: { providerId: number; code: string; at: string },
  ): Promise<(PriceItemRow & { price_list_erp_id: string }) | undefined> {
    const rows = await db.query<PriceItemRow & { price_list_erp_id: string }>(
      `SELECT l.price_list_erp_id, ${qualify(ITEM_COLUMNS, "i")}
       FROM price_lists l JOIN price_items i ON i.price_list_id = l.id
       WHERE l.tenant_id = $1 AND l.provider_id = $2
         AND l.start_date <= $4::timestamptz AND l.end_date >= $4::timestamptz
         AND i.date_start <= $4::timestamptz AND i.date_end >= $4::timestamptz
         AND (i.provider_service_code = $3 OR i.nphies_code = $3)
       ORDER BY i.provider_service_code = $3 DESC, l.start_date DESC, i.date_start DESC, i.id DESC
       LIMIT 1`,
      [tenantId, query.providerId, query.code, query.at],
    );
    return rows[0];
  },
};
