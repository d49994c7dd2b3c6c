import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ModuleDeps } from "../platform/http/plugin.js";
import type { RateLimiter } from "../platform/http/rate-limit.js";
import type { ApiKeyLookup } from "../platform/http/tenant-auth.js";

/** what every surface receives: its areas' dependencies, and the sign-in state that surfaces share */
export interface SurfaceDeps extends ModuleDeps {
  /** one budget per credential, whichever surface it is spent on */
  limiter: RateLimiter;
  /** the access-key check of the tenant API and FHIR, with its short memory of keys already checked */
  apiKeys: ApiKeyLookup;
}

/** a surface: its addresses, its sign-in and its error shape, and the areas it serves */
export type SurfacePlugin = FastifyPluginAsyncTypebox<SurfaceDeps>;
