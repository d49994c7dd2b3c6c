import { adjudicationSettingsRoutes } from "../modules/adjudication-settings/routes.js";
import { codeSetRoutes } from "../modules/code-sets/routes.js";
import { healthDeclarationRoutes } from "../modules/health-declarations/routes.js";
import { memberHistoryRoutes } from "../modules/member-history/routes.js";
import { memberRoutes } from "../modules/members/routes.js";
import { networkRoutes } from "../modules/networks/routes.js";
import { policyRoutes } from "../modules/policies/routes.js";
import { policyBulkRoutes } from "../modules/policy-bulk/routes.js";
import { policyHolderRoutes } from "../modules/policy-holders/routes.js";
import { policyTemplateRoutes } from "../modules/policy-templates/routes.js";
import { priceListRoutes } from "../modules/price-lists/routes.js";
import { priorAuthRoutes } from "../modules/prior-auth/routes.js";
import { providerRoutes } from "../modules/providers/routes.js";
import { userRoutes } from "../modules/users/routes.js";
import { webhookRoutes } from "../modules/webhooks/routes.js";
import { requireTenantApiKey } from "../platform/http/tenant-auth.js";
import type { SurfacePlugin } from "./surface.js";

export const API_PREFIX = "/:tenant/v4.0/health";

/**
 * The tenant API, {base_url} = /{tenant}/v4.0/health: the tenant's access-key and its rate limit, errors
 * in the spec's standard shape (members and policy holders answer in their own). Its areas, in the order
 * the OpenAPI document lists them.
 */
export const tenantApi: SurfacePlugin = async (surface, deps) => {
  await surface.register(
    async (api) => {
      requireTenantApiKey(api, deps.apiKeys, deps.limiter);
      await api.register(networkRoutes, deps);
      await api.register(providerRoutes, deps);
      await api.register(memberRoutes, deps);
      await api.register(policyHolderRoutes, deps);
      await api.register(userRoutes, deps);
      await api.register(codeSetRoutes, deps);
      await api.register(policyRoutes, deps);
      await api.register(policyTemplateRoutes, deps);
      await api.register(policyBulkRoutes, deps);
      await api.register(priceListRoutes, deps);
      await api.register(healthDeclarationRoutes, deps);
      await api.register(webhookRoutes, deps);
      await api.register(priorAuthRoutes, deps);
      await api.register(memberHistoryRoutes, deps);
      await api.register(adjudicationSettingsRoutes, deps);
    },
    { prefix: API_PREFIX },
  );
};
