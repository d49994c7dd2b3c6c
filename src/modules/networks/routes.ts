import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { forgetNetworksOnAnnouncement } from "./names.js";
import {
  CodeMessageBody,
  NetworkCreateBody,
  NetworkCreated,
  NetworkDetail,
  NetworkFindAllQuery,
  NetworkIdParams,
  NetworkPage,
  NetworkProviderBody,
  NetworkProviderLinked,
  NetworkProviderPage,
  NetworkProviderParams,
  NetworkUpdateBody,
  NetworkUpdated,
  PagingQuery,
} from "./schemas.js";
import * as networks from "./service.js";

const tags = ["Network"];

export const networkRoutes: AreaPlugin = async (app, { db }) => {
  // listings by name read this node's memory of the networks: other nodes' changes make it forget
  app.addHook("onClose", await forgetNetworksOnAnnouncement(db));
  app.post(
    "/network/create",
    {
      schema: {
        tags,
        summary: "Create a network",
        body: NetworkCreateBody,
        response: { 201: NetworkCreated, ...errorResponses([400, 401, 409]) },
      },
    },
    async (request, reply) => {
      const network = await networks.createNetwork(db, request.actor, request.body);
      return reply.status(201).send({
        internal_id: network.id,
        name: network.name,
        is_vip: network.is_vip,
        code: 201,
        message: "Network created successfully",
      });
    },
  );

  app.patch(
    "/network/update/:id",
    {
      schema: {
        tags,
        summary: "Update a network's name or VIP flag",
        params: NetworkIdParams,
        body: NetworkUpdateBody,
        response: { 200: NetworkUpdated, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request) => {
      const network = await networks.updateNetwork(db, request.actor, request.params.id, request.body);
      return {
        id: network.id,
        name: network.name,
        is_vip: network.is_vip,
        code: 200,
        message: "Network updated successfully",
      };
    },
  );

  app.get(
    "/network/find-all",
    {
      schema: {
        tags,
        summary: "Find networks by name and VIP flag, a page at a time",
        querystring: NetworkFindAllQuery,
        response: { 200: NetworkPage, ...errorResponses([400, 401]) },
      },
    },
    async (request) => {
      const page = await networks.findNetworks(db, request.tenant.id, request.query);
      return {
        total_count: page.total,
        code: 200,
        message: "Networks retrieved successfully",
        data: page.rows,
      };
    },
  );

  app.get(
    "/network/:id",
    {
      schema: {
        tags,
        summary: "Read one network (beyond the spec)",
        params: NetworkIdParams,
        response: { 200: NetworkDetail, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const network = await networks.getNetwork(db, request.tenant.id, request.params.id);
      return {
        ...network,
        created_at: network.created_at.toISOString(),
        updated_at: network.updated_at.toISOString(),
        code: 200,
        message: "Network retrieved successfully",
      };
    },
  );

  app.post(
    "/network/:id/providers",
    {
      schema: {
        tags,
        summary: "Add a medical provider to a network (beyond the spec)",
        params: NetworkIdParams,
        body: NetworkProviderBody,
        response: { 201: NetworkProviderLinked, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      await networks.changeNetworkProvider(db, request.actor, "add", request.params.id, request.body.cchi_no);
      return reply.status(201).send({
        network_id: request.params.id,
        cchi_no: request.body.cchi_no,
        code: 201,
        message: "Medical provider added to network",
      });
    },
  );

  app.get(
    "/network/:id/providers",
    {
      schema: {
        tags,
        summary: "List a network's medical providers (beyond the spec)",
        params: NetworkIdParams,
        querystring: PagingQuery,
        response: { 200: NetworkProviderPage, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const page = await networks.listNetworkProviders(
        db,
        request.tenant.id,
        request.params.id,
        request.query,
      );
      return {
        total_count: page.total,
        code: 200,
        message: "Network providers retrieved successfully",
        data: page.rows,
      };
    },
  );

  app.delete(
    "/network/:id/providers/:cchi_no",
    {
      schema: {
        tags,
        summary: "Remove a medical provider from a network (beyond the spec)",
        params: NetworkProviderParams,
        response: { 200: CodeMessageBody, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      await networks.changeNetworkProvider(
        db,
        request.actor,
        "remove",
        request.params.id,
        request.params.cchi_no,
      );
      return { code: 200, message: "Medical provider removed from network" };
    },
  );
};
