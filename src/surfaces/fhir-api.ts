import { fhirMetadataRoutes, fhirRoutes } from "../modules/fhir/routes.js";
import { useErrorShape } from "../platform/http/plugin.js";
import { requireTenantApiKey } from "../platform/http/tenant-auth.js";
import type { SurfacePlugin } from "./surface.js";

/**
 * The NPHIES FHIR interface, {fhir_base} = /{tenant}/fhir: its CapabilityStatement public, its messaging
 * behind the tenant's access-key, every error an OperationOutcome.
 */
export const fhirApi: SurfacePlugin = async (surface, deps) => {
  useErrorShape(surface, "fhir");
  await surface.register(fhirMetadataRoutes, deps);
  await surface.register(
    async (messaging) => {
      requireTenantApiKey(messaging, deps.apiKeys, deps.limiter);
      await messaging.register(fhirRoutes, deps);
    },
    { prefix: "/:tenant/fhir" },
  );
};
