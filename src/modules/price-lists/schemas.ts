import Type, { type Static } from "typebox";
import { CodeMessage, DateTime, Money, Text } from "../../platform/http/schemas.js";

/** a price item as a client sends it; `provider_service_Code` is the spec's spelling */
export const PriceItemBody = Type.Object({
  department: Text(1, 100),
  provider_service_Code: Text(1, 50, { description: "the provider's own code of the service" }),
  provider_service_description: Text(1, 255),
  provider_service_type: Text(1, 50),
  nphies_code: Text(1, 50),
  nphies_type: Text(1, 50),
  price: Money(),
  price_item_erp_id: Text(1, 255, { description: "unique" }),
  date_start: DateTime(),
  date_end: DateTime({ description: "not before date_start" }),
  gross: Type.Optional(Money()),
  discount: Type.Optional(Money()),
  nphies_id: Type.Optional(Text(1, 255)),
  length_of_stay: Type.Optional(Text(1, 20)),
  category: Type.Optional(Text(1, 20)),
});
export type PriceItemInput = Static<typeof PriceItemBody>;

export const PriceListCreateBody = Type.Object({
  start_date: DateTime(),
  end_date: DateTime({ description: "not before start_date" }),
  provider_cchi_id: Text(1, 255, { description: "the provider's CCHI number, or its NPHIES (ERP) code" }),
  price_list_erp_id: Text(1, 255, { description: "unique" }),
  price_items: Type.Array(PriceItemBody, { description: "the list's initial items; may be empty" }),
});
export type PriceListCreateInput = Static<typeof PriceListCreateBody>;

export const PriceItemsCreateBody = Type.Object({
  price_list_erp_id: Text(1, 255),
  price_items: Type.Array(PriceItemBody, { minItems: 1 }),
});
export type PriceItemsCreateInput = Static<typeof PriceItemsCreateBody>;

export const PriceItemUpdateBody = Type.Object({
  price: Type.Optional(Money()),
  gross: Type.Optional(Money()),
  discount: Type.Optional(Money()),
  end_date: Type.Optional(DateTime({ description: "the item's new date_end; not before its date_start" })),
});
export type PriceItemUpdateInput = Static<typeof PriceItemUpdateBody>;

export const PriceItemErpIdParams = Type.Object({ price_item_erp_id: Text(1, 255) });
export const PriceListErpIdParams = Type.Object({ price_list_erp_id: Text(1, 255) });

/** a stored price item; optional fields never set are absent, not null */
export const PriceItemView = Type.Object({
  id: Type.Integer(),
  department: Type.String(),
  provider_service_Code: Type.String(),
  provider_service_description: Type.String(),
  provider_service_type: Type.String(),
  nphies_code: Type.String(),
  nphies_type: Type.String(),
  price: Type.Number(),
  price_item_erp_id: Type.String(),
  date_start: Type.String({ description: "DATETIME" }),
  date_end: Type.String({ description: "DATETIME" }),
  gross: Type.Optional(Type.Number()),
  discount: Type.Optional(Type.Number()),
  nphies_id: Type.Optional(Type.String()),
  length_of_stay: Type.Optional(Type.String()),
  category: Type.Optional(Type.String()),
});
export type PriceItem = Static<typeof PriceItemView>;

const PriceListFields = {
  id: Type.Integer(),
  start_date: Type.String({ description: "DATETIME" }),
  end_date: Type.String({ description: "DATETIME" }),
  price_list_erp_id: Type.String(),
  price_items: Type.Array(PriceItemView),
};

export const PriceListCreated = Type.Object({ ...PriceListFields, ...CodeMessage });

export const PriceListFound = Type.Object({
  ...PriceListFields,
  provider_cchi_no: Type.String({ description: "CCHI number of the list's provider" }),
  ...CodeMessage,
});

export const PriceItemsCreated = Type.Object({
  price_list_erp_id: Type.String(),
  created_items: Type.Array(PriceItemView),
  ...CodeMessage,
});

export const CodeMessageBody = Type.Object({ ...CodeMessage });
