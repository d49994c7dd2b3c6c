import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import Type from "typebox";
import { registerMetrics } from "../platform/metrics.js";
import type { SurfacePlugin } from "./surface.js";

const Health = Type.Object({ status: Type.Literal("ok") });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal("ready"), Type.Literal("unavailable")]),
  database: Type.Union([Type.Literal("pglite"), Type.Literal("postgres")]),
});

const readySchema = {
  tags: ["Operations"],
  summary: "Readiness: 200 when the database answers, 503 otherwise",
  response: { 200: Readiness, 503: Readiness },
};

/**
 * Operations: the docs and the OpenAPI document, liveness, readiness and metrics, public. Not
 * encapsulated (fastify-plugin): the document describes, and the metrics count, every surface's routes.
 */
const operationsSurface: SurfacePlugin = async (app, { db, config }) => {
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
  app.get("/readyz", { schema: readySchema }, async (_request, reply) => {
    try {
      await db.query("SELECT 1");
      return { status: "ready" as const, database: db.kind };
    } catch (error) {
      app.log.warn({ err: error }, "readiness check: database does not answer");
      return reply.status(503).send({ status: "unavailable" as const, database: db.kind });
    }
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
};

export const operations = fp(operationsSurface, { name: "operations" });
