import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import Type from "typebox";
import type { TenantMode } from "../../config.js";
import type { TenantActor } from "../audit/audit.js";
import { AppError } from "./errors.js";
import { enforceRateLimit, type RateLimiter } from "./rate-limit.js";

/** the tenant a request authenticated as (the tenants module's Tenant row extends it) */
export interface AuthenticatedTenant {
  id: number;
  name: string;
  mode: TenantMode;
}

declare module "fastify" {
  interface FastifyRequest {
    /** the authenticated tenant of a tenant-scoped route */
    tenant: AuthenticatedTenant;
    /** who is acting, for the audit log and jobs */
    actor: TenantActor;
  }
}

export type ApiKeyLookup = (
  apiKey: string,
) => Promise<{ key_id: number; tenant: AuthenticatedTenant } | undefined>;

/** the `{tenant}` of every tenant-scoped path (the API, FHIR, the console) */
export const TenantParam = Type.String({
  pattern: "^[a-z0-9-]{1,63}$",
  description: "the tenant (per-client namespace)",
});

/** the `{tenant}` the router matched: read before validation, since the access-key is checked first */
function tenantInPath(request: FastifyRequest): string | undefined {
  const params = request.params;
  if (typeof params !== "object" || params === null || !("tenant" in params)) return undefined;
  return typeof params.tenant === "string" ? params.tenant : undefined;
}

/**
 * Makes every route registered in `app` tenant-scoped: declares the `tenant` path parameter, and checks
 * the `access-key` header before anything else runs. A key is valid only under its own tenant's path, so a
 * key of tenant A used under /B/… is 401 exactly like a wrong key: the answer does not reveal that B exists.
 */
export function requireTenantApiKey(app: FastifyInstance, lookup: ApiKeyLookup, limiter: RateLimiter): void {
  app.decorateRequest("tenant", undefined as unknown as AuthenticatedTenant);
  app.decorateRequest("actor", undefined as unknown as TenantActor);

  app.addHook("onRoute", (route: RouteOptions) => {
    route.schema ??= {};
    const schema = route.schema;
    const params = (schema.params ?? Type.Object({})) as ReturnType<typeof Type.Object>;
    schema.params = Type.Object({ tenant: TenantParam, ...params.properties });
  });

  app.addHook("onRequest", async (request: FastifyRequest, reply) => {
    const apiKey = request.headers["access-key"];
    if (typeof apiKey !== "string" || apiKey === "") throw new AppError("AUTH_REQUIRED");
    const owner = await lookup(apiKey);
    if (owner === undefined || owner.tenant.name !== tenantInPath(request))
      throw new AppError("AUTH_REQUIRED");
    enforceRateLimit(limiter, `key:${owner.key_id}`, reply);
    request.tenant = owner.tenant;
    request.actor = { tenantId: owner.tenant.id, actor: `api-key:${owner.key_id}`, requestId: request.id };
  });
}
