/**
 * The application: the Fastify server with its options and shared handling, then its surfaces, each in
 * src/surfaces/. A surface owns its addresses, its sign-in and its error shape; an area (a module's one
 * AreaPlugin, src/platform/http/plugin.ts) owns its routes and its start-up and shutdown work.
 *
 * To add an area to a surface: write the module's `routes.ts` as one `AreaPlugin` (register its
 * sub-route plugins inside it; start what it needs in its body and stop it with `app.addHook("onClose",
 * stop)`), then add one line `await api.register(myRoutes, deps)` to the surface's file. Neither step
 * touches this file. A new surface (its own prefix, credential or error shape) is a file in
 * src/surfaces/ (a SurfacePlugin) registered below.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance } from "fastify";
import type { Config } from "./config.js";
import { createApiKeyAuthenticator } from "./modules/tenants/service.js";
import type { Db } from "./platform/db/db.js";
import { createRateLimiter } from "./platform/http/rate-limit.js";
import { requestIdOf, useSharedHandling } from "./platform/http/shared-handling.js";
import type { JobQueue } from "./platform/jobs/queue.js";
import { logSerializers, prettyOnTerminal } from "./platform/logging.js";
import { claimsApi } from "./surfaces/claims-api.js";
import { reviewerConsole } from "./surfaces/console.js";
import { fhirApi } from "./surfaces/fhir-api.js";
import { operations } from "./surfaces/operations.js";
import { operatorApi } from "./surfaces/operator-api.js";
import type { SurfaceDeps } from "./surfaces/surface.js";
import { tenantApi } from "./surfaces/tenant-api.js";

export type App = FastifyInstance;

export async function buildApp(config: Config, db: Db, jobs: JobQueue): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: logSerializers,
      ...prettyOnTerminal(),
      redact: {
        paths: ['req.headers["access-key"]', "req.headers.authorization", "req.headers.cookie"],
        censor: "[redacted]",
      },
    },
    https: config.tls ? { cert: config.tls.cert, key: config.tls.key } : null,
    genReqId: requestIdOf,
    return503OnClosing: true,
    trustProxy: config.trustProxy,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: true },
    // some HTTP clients percent-encode the "$" of a FHIR operation; the router matches it as sent
    rewriteUrl: (request) => (request.url ?? "/").replace(/\/fhir\/%24/i, "/fhir/$"),
  }).withTypeProvider<TypeBoxTypeProvider>();
  useSharedHandling(app);

  // one rate limit per credential, and one memory of checked access-keys, across the surfaces
  const deps: SurfaceDeps = {
    db,
    jobs,
    config,
    limiter: createRateLimiter(config.rateLimit),
    apiKeys: createApiKeyAuthenticator(db),
  };
  // in this order: the OpenAPI document lists the routes as they are registered
  await app.register(operations, deps);
  await app.register(operatorApi, deps);
  await app.register(tenantApi, deps);
  await app.register(fhirApi, deps);
  await app.register(reviewerConsole, deps);
  await app.register(claimsApi, deps);
  return app;
}
