import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance } from "fastify";
import Type from "typebox";
import type { Config } from "./config.js";
import { forgetOnAnnouncement } from "./modules/adjudication-settings/engine-settings.js";
import { adjudicationSettingsRoutes } from "./modules/adjudication-settings/routes.js";
import { adminRoutes } from "./modules/admin/routes.js";
import { claimsBatchRoutes } from "./modules/claims-batch/routes.js";
import { codeSetRoutes } from "./modules/code-sets/routes.js";
import { consoleRoutes } from "./modules/console/routes.js";
import { fhirMetadataRoutes, fhirRoutes } from "./modules/fhir/routes.js";
import { fwaLearningRoutes } from "./modules/fwa-learning/routes.js";
import { healthDeclarationRoutes } from "./modules/health-declarations/routes.js";
import { memberHistoryRoutes } from "./modules/member-history/routes.js";
import { memberRoutes } from "./modules/members/routes.js";
import { forgetNetworksOnAnnouncement } from "./modules/networks/names.js";
import { networkRoutes } from "./modules/networks/routes.js";
import { oauthRoutes } from "./modules/oauth/routes.js";
import { createTokenService } from "./modules/oauth/tokens.js";
import { policyRoutes } from "./modules/policies/routes.js";
import { policyBulkRoutes } from "./modules/policy-bulk/routes.js";
import { policyHolderRoutes } from "./modules/policy-holders/routes.js";
import { policyTemplateRoutes } from "./modules/policy-templates/routes.js";
import { priceListRoutes } from "./modules/price-lists/routes.js";
import { communicationRoutes } from "./modules/prior-auth/communications/routes.js";
import { informationRequestRoutes } from "./modules/prior-auth/information-requests/routes.js";
import { priorAuthRoutes } from "./modules/prior-auth/routes.js";
import { supportingInfoRoutes } from "./modules/prior-auth/supporting-info/routes.js";
import { providerRoutes } from "./modules/providers/routes.js";
import { createApiKeyAuthenticator } from "./modules/tenants/service.js";
import { userRoutes } from "./modules/users/routes.js";
import { webhookRoutes } from "./modules/webhooks/routes.js";
import type { Db } from "./platform/db/db.js";
import { requireBearerToken } from "./platform/http/bearer-auth.js";
import { registerErrorHandler } from "./platform/http/error-handler.js";
import { useErrorShape } from "./platform/http/plugin.js";
import { createRateLimiter } from "./platform/http/rate-limit.js";
import { requireTenantApiKey } from "./platform/http/tenant-auth.js";
import { validatorCompiler } from "./platform/http/validation.js";
import type { JobQueue } from "./platform/jobs/queue.js";
import { logSerializers, prettyOnTerminal } from "./platform/logging.js";
import { registerMetrics } from "./platform/metrics.js";

export const API_PREFIX = "/:tenant/v4.0/health";
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** a caller's X-Request-ID is kept when it is sane, so one id follows a request across systems */
function requestIdOf(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

export type App = FastifyInstance;

const Health = Type.Object({ status: Type.Literal("ok") });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal("ready"), Type.Literal("unavailable")]),
  database: Type.Union([Type.Literal("pglite"), Type.Literal("postgres")]),
});

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

  app.setValidatorCompiler(validatorCompiler);
  // operations without a body (cancel, the webhook test) are often sent with a JSON content type and
  // nothing after it: an empty JSON body is no body, anything else is parsed as usual
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text === "") return done(null, undefined);
    return parseJson(request, text, done);
  });
  registerErrorHandler(app);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Mizan health-insurance adjudication API",
        version: "4.0",
        description:
          "Reference data, prior authorization and claims screening. Tenant API under /{tenant}/v4.0/health.",
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          accessKey: { type: "apiKey", in: "header", name: "access-key" },
          operatorToken: { type: "http", scheme: "bearer" },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });

  if (config.metrics) registerMetrics(app, db, config.jobsSchema);
  app.get("/", { schema: { hide: true } }, async (_request, reply) => reply.redirect("/docs"));
  app.get(
    "/healthz",
    {
      schema: {
        tags: ["Operations"],
        summary: "Liveness: 200 while the process serves",
        response: { 200: Health },
      },
    },
    async () => ({ status: "ok" as const }),
  );
  const readySchema = {
    tags: ["Operations"],
    summary: "Readiness: 200 when the database answers, 503 otherwise",
    response: { 200: Readiness, 503: Readiness },
  };
  app.get("/readyz", { schema: readySchema }, async (_request, reply) => {
    try {
      await db.query("SELECT 1");
      return { status: "ready" as const, database: db.kind };
    } catch (error) {
      app.log.warn({ err: error }, "readiness check: database does not answer");
      return reply.status(503).send({ status: "unavailable", database: db.kind });
    }
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  if (config.adminToken !== undefined) {
    await app.register(adminRoutes, { db, adminToken: config.adminToken });
  }

  const stopForgetting = await forgetOnAnnouncement(db);
  app.addHook("onClose", stopForgetting);
  const stopForgettingNetworks = await forgetNetworksOnAnnouncement(db);
  app.addHook("onClose", stopForgettingNetworks);

  const limiter = createRateLimiter(config.rateLimit);
  const authenticate = createApiKeyAuthenticator(db);
  await app.register(
    async (tenantApi) => {
      requireTenantApiKey(tenantApi, authenticate, limiter);
      for (const routes of [
        networkRoutes,
        providerRoutes,
        memberRoutes,
        policyHolderRoutes,
        userRoutes,
        codeSetRoutes,
        policyRoutes,
        policyTemplateRoutes,
        policyBulkRoutes,
        priceListRoutes,
        healthDeclarationRoutes,
        webhookRoutes,
        priorAuthRoutes,
        supportingInfoRoutes,
        communicationRoutes,
        informationRequestRoutes,
        memberHistoryRoutes,
        adjudicationSettingsRoutes,
      ]) {
        await tenantApi.register(routes, { db, jobs, config });
      }
    },
    { prefix: API_PREFIX },
  );

  // the NPHIES FHIR interface: {fhir_base} = /{tenant}/fhir, the tenant's access-key, errors as OperationOutcome
  await app.register(async (fhirApi) => {
    useErrorShape(fhirApi, "fhir");
    await fhirApi.register(fhirMetadataRoutes, { db, jobs, config });
    await fhirApi.register(
      async (messaging) => {
        requireTenantApiKey(messaging, authenticate, limiter);
        await messaging.register(fhirRoutes, { db, jobs, config });
      },
      { prefix: "/:tenant/fhir" },
    );
  });

  // the reviewer console: /{tenant}/console, its own sign-in (docs: README "Reviewer console")
  await app.register(consoleRoutes, { db, jobs, config, prefix: "/:tenant/console" });

  // the batch claims service: {auth_url}/v1/auth/token and {claims_base_url} = /v1 (docs/operator-contract.md section 3)
  const tokens = await createTokenService(db, config.publicUrl);
  await app.register(oauthRoutes, { db, tokens });
  await app.register(
    async (claimsApi) => {
      useErrorShape(claimsApi, "batch");
      requireBearerToken(claimsApi, (token) => tokens.verify(token), limiter);
      await claimsBatchRoutes(claimsApi, { db, jobs, config });
      await fwaLearningRoutes(claimsApi, { db, jobs });
    },
    { prefix: "/v1" },
  );

  return app;
}
