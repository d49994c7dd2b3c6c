/**
 * Prometheus metrics (docs/operator-contract.md section 13). Process-wide figures (jobs, deliveries,
 * batch analyses, the process itself) live in one registry, since workers run without HTTP; each app adds
 * its own registry for its requests and its queues (tests build several apps in one process), and a scrape
 * merges the two.
 */
import type { FastifyInstance } from "fastify";
import client from "prom-client";
import type { Queryable } from "./db/db.js";

export const processRegistry = new client.Registry();
client.collectDefaultMetrics({ register: processRegistry, prefix: "mizan_" });

export const batchAnalyses = new client.Counter({
  name: "mizan_batch_analyses_total",
  help: "Claims batch analyses that ended, by outcome (completed, failed)",
  labelNames: ["outcome"] as const,
  registers: [processRegistry],
});

export const batchAnalysisSeconds = new client.Histogram({
  name: "mizan_batch_analysis_duration_seconds",
  help: "Duration of completed claims batch analyses, from the job's start to its completion",
  buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
  registers: [processRegistry],
});

export const webhookDeliveries = new client.Counter({
  name: "mizan_webhook_deliveries_total",
  help: "Delivery attempts by target kind (webhook, subscription) and outcome (delivered, retry, failed, gone)",
  labelNames: ["target", "outcome"] as const,
  registers: [processRegistry],
});

/** pg-boss's waiting jobs (created or retrying) per queue, and how long the oldest due one has waited */
const queueFiguresIn = (schema: string) => `
  SELECT name, count(*)::int AS depth,
         COALESCE(EXTRACT(EPOCH FROM now() - min(created_on) FILTER (WHERE start_after <= now())), 0)::float8 AS oldest
  FROM ${schema}.job WHERE state IN ('created', 'retry') GROUP BY name`;

/** GET /metrics on this app: its requests by route and status, its queues, and the process's figures */
export function registerMetrics(app: FastifyInstance, db: Queryable, jobsSchema: string): void {
  const queueSql = queueFiguresIn(jobsSchema);
  const registry = new client.Registry();
  const requests = new client.Counter({
    name: "mizan_http_requests_total",
    help: "HTTP requests by route pattern, method and status code",
    labelNames: ["route", "method", "status_code"] as const,
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: "mizan_http_request_duration_seconds",
    help: "HTTP request latency by route pattern, method and status code",
    labelNames: ["route", "method", "status_code"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // one query per scrape feeds both gauges (a registry reads its metrics concurrently)
  let reading: Promise<{ name: string; depth: number; oldest: number }[]> | undefined;
  const queueFigures = () => {
    reading ??= db.query<{ name: string; depth: number; oldest: number }>(queueSql).catch((error) => {
      // a scrape answers without the queue figures rather than failing
      app.log.warn({ err: error }, "metrics: the job queues could not be read");
      return [];
    });
    const current = reading;
    setTimeout(() => {
      if (reading === current) reading = undefined;
    }, 250).unref();
    return current;
  };
  for (const [name, help, field] of [
    ["mizan_job_queue_depth", "Jobs waiting in a queue (created or to be retried)", "depth"],
    ["mizan_job_queue_oldest_age_seconds", "How long the oldest due job of a queue has waited", "oldest"],
  ] as const)
    new client.Gauge({
      name,
      help,
      labelNames: ["queue"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of await queueFigures()) this.set({ queue: row.name }, row[field]);
      },
    });

  app.addHook("onResponse", async (request, reply) => {
    // the route's pattern, never the raw URL, so the labels stay few
    const labels = {
      route: request.routeOptions.url ?? "unmatched",
      method: request.method,
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  app.get(
    "/metrics",
    {
      schema: { tags: ["Operations"], summary: "Prometheus metrics (text format)", produces: ["text/plain"] },
    },
    async (_request, reply) => {
      const merged = client.Registry.merge([processRegistry, registry]);
      return reply.header("content-type", merged.contentType).send(await merged.metrics());
    },
  );
}
