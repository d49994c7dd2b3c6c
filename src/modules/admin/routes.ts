import Type from "typebox";
import { TENANT_MODES } from "../../config.js";
import type { AreaPlugin } from "../../platform/http/plugin.js";
import { Enum, errorResponses } from "../../platform/http/schemas.js";
import * as tenants from "../tenants/service.js";

const tags = ["Operator"];

const TenantCreateBody = Type.Object({
  name: Type.String({ pattern: "^[a-z0-9-]{1,63}$", description: "1-63 of a-z, 0-9 and -" }),
  mode: Type.Optional(Enum(TENANT_MODES, { description: "prior-authorization mode; standard when omitted" })),
});

const TenantCreated = Type.Object({
  name: Type.String(),
  mode: Type.String(),
  api_key: Type.String({ description: "shown once; stored hashed" }),
  client_id: Type.String(),
  client_secret: Type.String({ description: "shown once; stored hashed" }),
});

const TenantList = Type.Object({
  data: Type.Array(
    Type.Object({
      name: Type.String(),
      mode: Type.String(),
      created_at: Type.String({ format: "date-time" }),
    }),
  ),
});

/** The operator API's tenants (docs/operator-contract.md section 5); its surface checks the token. */
export const adminRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/admin/v1/tenants",
    {
      schema: {
        tags,
        summary: "Create a tenant with its access-key and OAuth client",
        body: TenantCreateBody,
        response: { 201: TenantCreated, ...errorResponses([400, 401, 409]) },
      },
    },
    async (request, reply) => {
      const actor = { tenantId: undefined, actor: "admin", requestId: request.id };
      const created = await tenants.createTenant(db, actor, {
        name: request.body.name,
        mode: request.body.mode ?? "standard",
      });
      return reply.status(201).send({
        name: created.tenant.name,
        mode: created.tenant.mode,
        api_key: created.apiKey,
        client_id: created.clientId,
        client_secret: created.clientSecret,
      });
    },
  );

  app.get(
    "/admin/v1/tenants",
    { schema: { tags, summary: "List tenants", response: { 200: TenantList, ...errorResponses([401]) } } },
    async () => {
      const list = await tenants.listTenants(db);
      return {
        data: list.map(({ name, mode, created_at }) => ({
          name,
          mode,
          created_at: created_at.toISOString(),
        })),
      };
    },
  );
};
