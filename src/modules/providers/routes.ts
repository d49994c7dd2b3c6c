import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import {
  CchiNoParams,
  ProviderCreateBody,
  ProviderCreated,
  ProviderUpdateBody,
  ProviderView,
} from "./schemas.js";
import * as providers from "./service.js";

const tags = ["Medical provider"];

export const providerRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/medical-provider/create",
    {
      schema: {
        tags,
        summary: "Create a medical provider",
        body: ProviderCreateBody,
        response: { 201: ProviderCreated, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const provider = await providers.createProvider(db, request.actor, request.body);
      return reply.status(201).send({
        internal_id: provider.internal_id,
        cchi_no: provider.cchi_no,
        code: 201,
        message: "Medical provider created successfully",
      });
    },
  );

  app.patch(
    "/medical-provider/:cchi_no",
    {
      schema: {
        tags,
        summary: "Update a medical provider",
        params: CchiNoParams,
        body: ProviderUpdateBody,
        response: { 200: ProviderView, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request) => {
      const provider = await providers.updateProvider(
        db,
        request.actor,
        request.params.cchi_no,
        request.body,
      );
      return { ...provider, code: 200, message: "Medical provider updated successfully" };
    },
  );

  app.get(
    "/medical-provider/:cchi_no",
    {
      schema: {
        tags,
        summary: "Read one medical provider (beyond the spec)",
        params: CchiNoParams,
        response: { 200: ProviderView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const provider = await providers.getProvider(db, request.tenant.id, request.params.cchi_no);
      return { ...provider, code: 200, message: "Medical provider retrieved successfully" };
    },
  );
};
