import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import {
  CodeMessageBody,
  PriceItemErpIdParams,
  PriceItemsCreateBody,
  PriceItemsCreated,
  PriceItemUpdateBody,
  PriceListCreateBody,
  PriceListCreated,
  PriceListErpIdParams,
  PriceListFound,
} from "./schemas.js";
import * as priceLists from "./service.js";

const tags = ["Price list"];

export const priceListRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/price-list/create",
    {
      schema: {
        tags,
        summary: "Create a provider's price list, with its initial items",
        body: PriceListCreateBody,
        response: { 201: PriceListCreated, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const { list, items } = await priceLists.createPriceList(db, request.actor, request.body);
      return reply.status(201).send({
        ...priceLists.presentList(list, items),
        code: 201,
        message: "Price list created successfully",
      });
    },
  );

  app.post(
    "/price-list/items/create",
    {
      schema: {
        tags,
        summary: "Add items to a price list",
        body: PriceItemsCreateBody,
        response: { 201: PriceItemsCreated, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const items = await priceLists.addPriceItems(db, request.actor, request.body);
      return reply.status(201).send({
        price_list_erp_id: request.body.price_list_erp_id,
        created_items: items.map(priceLists.presentItem),
        code: 201,
        message: "Price items created successfully",
      });
    },
  );

  app.patch(
    "/price-list/item/update/:price_item_erp_id",
    {
      schema: {
        tags,
        summary: "Change a price item's price, gross, discount or end date; only the fields sent change",
        params: PriceItemErpIdParams,
        body: PriceItemUpdateBody,
        response: { 200: CodeMessageBody, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      await priceLists.updatePriceItem(db, request.actor, request.params.price_item_erp_id, request.body);
      return { code: 200, message: "Price item updated successfully" };
    },
  );

  app.get(
    "/price-list/:price_list_erp_id",
    {
      schema: {
        tags,
        summary: "Read a price list with all its items (beyond the spec)",
        params: PriceListErpIdParams,
        response: { 200: PriceListFound, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const list = await priceLists.getPriceList(db, request.tenant.id, request.params.price_list_erp_id);
      return { ...list, code: 200, message: "Price list retrieved successfully" };
    },
  );
};
