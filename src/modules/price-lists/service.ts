import { halalasOf, riyalsOf } from "../../engine/money.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError, MAX_DETAILS, refusal, withConflicts } from "../../platform/http/errors.js";
import { type NewPriceItem, type PriceItemRow, type PriceListRow, priceListRepo } from "./repo.js";
import type {
  PriceItem,
  PriceItemInput,
  PriceItemsCreateInput,
  PriceItemUpdateInput,
  PriceListCreateInput,
} from "./schemas.js";

function refuseIfAny(problems: string[]): void {
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
}

/**
 * What the schema cannot say about a request's items: date order, and ids unique within the request.
 * DATETIME text is fixed-width UTC, so comparing it as text compares the instants.
 */
function itemProblems(items: PriceItemInput[]): string[] {
  const problems: string[] = [];
  const firstIndexOf = new Map<string, number>();
  items.forEach((item, index) => {
    if (item.date_end < item.date_start)
      problems.push(`price_items[${index}].date_end must not be before date_start`);
    const first = firstIndexOf.get(item.price_item_erp_id);
    if (first === undefined) firstIndexOf.set(item.price_item_erp_id, index);
    else problems.push(`price_items[${index}].price_item_erp_id duplicates price_items[${first}]`);
  });
  return problems;
}

function toNewItem(item: PriceItemInput): NewPriceItem {
  return {
    price_item_erp_id: item.price_item_erp_id,
    department: item.department,
    provider_service_code: item.provider_service_Code,
    provider_service_description: item.provider_service_description,
    provider_service_type: item.provider_service_type,
    nphies_code: item.nphies_code,
    nphies_type: item.nphies_type,
    price: item.price,
    date_start: item.date_start,
    date_end: item.date_end,
    gross: item.gross ?? null,
    discount: item.discount ?? null,
    nphies_id: item.nphies_id ?? null,
    length_of_stay: item.length_of_stay ?? null,
    category: item.category ?? null,
  };
}

/** the API's view of an item: JSON numbers for money, DATETIME text, and no field for what was never set */
export function presentItem(row: PriceItemRow): PriceItem {
  const item: PriceItem = {
    id: row.id,
    department: row.department,
    provider_service_Code: row.provider_service_code,
    provider_service_description: row.provider_service_description,
    provider_service_type: row.provider_service_type,
    nphies_code: row.nphies_code,
    nphies_type: row.nphies_type,
    price: riyalsOf(halalasOf(row.price)),
    price_item_erp_id: row.price_item_erp_id,
    date_start: row.date_start.toISOString(),
    date_end: row.date_end.toISOString(),
  };
  if (row.gross !== null) item.gross = riyalsOf(halalasOf(row.gross));
  if (row.discount !== null) item.discount = riyalsOf(halalasOf(row.discount));
  if (row.nphies_id !== null) item.nphies_id = row.nphies_id;
  if (row.length_of_stay !== null) item.length_of_stay = row.length_of_stay;
  if (row.category !== null) item.category = row.category;
  return item;
}

export function presentList(list: PriceListRow, items: PriceItemRow[]) {
  return {
    id: list.id,
    start_date: list.start_date.toISOString(),
    end_date: list.end_date.toISOString(),
    price_list_erp_id: list.price_list_erp_id,
    price_items: items.map(presentItem),
  };
}

const listTaken = (erpId: string) => () =>
  new AppError("E_CONFLICT_409", `Price list ${erpId} already exists`);

/**
 * The 409 of a request whose items collided with existing ones: it names them, read once the failed
 * write is over (the unique index judged; a successful request never pays for this read).
 */
function itemsTaken(db: Queryable, tenantId: number, erpIds: string[]) {
  return async () => {
    const found = new Set(await priceListRepo.findTakenItemErpIds(db, tenantId, erpIds));
    const taken = found.size > 0 ? erpIds.filter((erpId) => found.has(erpId)) : erpIds;
    const named = taken.slice(0, MAX_DETAILS).join(", ");
    const more = taken.length > MAX_DETAILS ? ` and ${taken.length - MAX_DETAILS} more` : "";
    return new AppError(
      "E_CONFLICT_409",
      taken.length === 1 ? `Price item ${named} already exists` : `Price items ${named}${more} already exist`,
    );
  };
}

/** a list's new items and their audit record, in the caller's transaction */
async function insertItems(
  tx: Queryable,
  actor: TenantActor,
  list: PriceListRow,
  items: PriceItemInput[],
  audit: { action: string; details: Record<string, unknown> },
): Promise<PriceItemRow[]> {
  const inserted = await priceListRepo.insertItems(tx, actor.tenantId, list.id, items.map(toNewItem));
  await recordAudit(tx, actor, {
    action: audit.action,
    entityType: "price_list",
    entityKey: list.price_list_erp_id,
    details: { ...audit.details, price_item_erp_ids: items.map((item) => item.price_item_erp_id) },
  });
  return inserted;
}

export async function createPriceList(
  db: Db,
  actor: TenantActor,
  input: PriceListCreateInput,
): Promise<{ list: PriceListRow; items: PriceItemRow[] }> {
  const problems = input.end_date < input.start_date ? ["end_date must not be before start_date"] : [];
  refuseIfAny([...problems, ...itemProblems(input.price_items)]);
  const providerId = await priceListRepo.findProviderId(db, actor.tenantId, input.provider_cchi_id);
  if (providerId === undefined)
    throw new AppError("E_EMP_01", `Medical provider ${input.provider_cchi_id} not found`);
  const itemErpIds = input.price_items.map((item) => item.price_item_erp_id);
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const list = await priceListRepo.insertList(tx, actor.tenantId, {
          price_list_erp_id: input.price_list_erp_id,
          provider_id: providerId,
          start_date: input.start_date,
          end_date: input.end_date,
        });
        const items = await insertItems(tx, actor, list, input.price_items, {
          action: "price-list.create",
          details: {
            provider_cchi_id: input.provider_cchi_id,
            start_date: input.start_date,
            end_date: input.end_date,
          },
        });
        return { list, items };
      }),
    {
      price_lists_erp_id_key: listTaken(input.price_list_erp_id),
      price_items_erp_id_key: itemsTaken(db, actor.tenantId, itemErpIds),
    },
  );
}

export async function addPriceItems(
  db: Db,
  actor: TenantActor,
  input: PriceItemsCreateInput,
): Promise<PriceItemRow[]> {
  refuseIfAny(itemProblems(input.price_items));
  const list = await priceListRepo.findListByErpId(db, actor.tenantId, input.price_list_erp_id);
  if (list === undefined) throw new AppError("E_EPL_01", `Price list ${input.price_list_erp_id} not found`);
  const itemErpIds = input.price_items.map((item) => item.price_item_erp_id);
  return withConflicts(
    () =>
      db.transaction((tx) =>
        insertItems(tx, actor, list, input.price_items, { action: "price-list.items.create", details: {} }),
      ),
    { price_items_erp_id_key: itemsTaken(db, actor.tenantId, itemErpIds) },
  );
}

export function updatePriceItem(
  db: Db,
  actor: TenantActor,
  erpId: string,
  input: PriceItemUpdateInput,
): Promise<void> {
  const changes = {
    price: input.price,
    gross: input.gross,
    discount: input.discount,
    date_end: input.end_date,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw refusal("E_BAD_REQUEST_400", ["at least one of price, gross, discount, end_date is required"]);
  }
  return db.transaction(async (tx) => {
    const item = await priceListRepo.lockItemByErpId(tx, actor.tenantId, erpId);
    if (item === undefined) throw new AppError("E_EPI_01", `Price item ${erpId} not found`);
    if (input.end_date !== undefined && input.end_date < item.date_start.toISOString()) {
      throw refusal("E_BAD_REQUEST_400", [
        `end_date must not be before date_start (${item.date_start.toISOString()})`,
      ]);
    }
    await priceListRepo.updateItem(tx, actor.tenantId, item.id, changes);
    await recordAudit(tx, actor, {
      action: "price-item.update",
      entityType: "price_item",
      entityKey: erpId,
      details: {
        before: { price: item.price, gross: item.gross, discount: item.discount, end_date: item.date_end },
        changes: input,
      },
    });
  });
}

export async function getPriceList(db: Db, tenantId: number, erpId: string) {
  const list = await priceListRepo.findListByErpId(db, tenantId, erpId);
  if (list === undefined) throw new AppError("E_EPL_01", `Price list ${erpId} not found`);
  const items = await priceListRepo.listItems(db, list.id);
  return { ...presentList(list, items), provider_cchi_no: list.provider_cchi_no };
}

/** a price item in force, with the list it belongs to */
export type PriceInForce = PriceItem & { price_list_erp_id: string };

/**
 * The prior-authorization engine's price lookup: the item of the provider's lists that is in force at
 * `at` for `code` (a provider service code, or else an NPHIES code). Undefined: the provider has no price.
 */
export async function findPriceInForce(
  db: Queryable,
  tenantId: number,
  query: { providerId: number; code: string; at: Date },
): Promise<PriceInForce | undefined> {
  const row = await priceListRepo.findInForce(db, tenantId, {
    providerId: query.providerId,
    code: query.code,
    at: query.at.toISOString(),
  });
  if (row === undefined) return undefined;
  return { ...presentItem(row), price_list_erp_id: row.price_list_erp_id };
}
