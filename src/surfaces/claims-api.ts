import { claimsBatchRoutes } from "../modules/claims-batch/routes.js";
import { fwaLearningRoutes } from "../modules/fwa-learning/routes.js";
import { oauthRoutes } from "../modules/oauth/routes.js";
import { createTokenService } from "../modules/oauth/tokens.js";
import { requireBearerToken } from "../platform/http/bearer-auth.js";
import { useErrorShape } from "../platform/http/plugin.js";
import type { SurfacePlugin } from "./surface.js";

/**
 * The batch claims service (docs/operator-contract.md section 3): its token endpoint {auth_url}/v1/auth/token
 * (RFC 6749 errors), and {claims_base_url} = /v1 behind the tokens it issues, errors in the batch shape.
 */
export const claimsApi: SurfacePlugin = async (surface, deps) => {
  const tokens = await createTokenService(deps.db, deps.config.publicUrl);
  await surface.register(oauthRoutes, { ...deps, tokens });
  await surface.register(
    async (bearerApi) => {
      useErrorShape(bearerApi, "batch");
      requireBearerToken(bearerApi, (token) => tokens.verify(token), deps.limiter);
      await bearerApi.register(claimsBatchRoutes, deps);
      await bearerApi.register(fwaLearningRoutes, deps);
    },
    { prefix: "/v1" },
  );
};
