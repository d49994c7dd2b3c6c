/**
 * A seeded fuzz of every route the OpenAPI document lists (tenant API, batch service, operator API), over
 * real HTTP: valid-looking bodies with one field made hostile, hostile bodies, paths, queries, content
 * types, Authorization headers and token forms, and requests without a body or a content type. Every request must get an answer below 500. MIZAN_FUZZ_REQUESTS (default 2,000) and
 * MIZAN_FUZZ_SEED (default 1) change the run; a failure lists the requests that reproduce it.
 */
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { seededRandom } from "../src/engine/fwa/stats/random.js";
import { startTestApp, type TestContext } from "./helpers.js";
import { tokenFor } from "./modules/claims-batch/fixtures.js";

const REQUESTS = Number(process.env.MIZAN_FUZZ_REQUESTS ?? 2_000);
const SEED = Number(process.env.MIZAN_FUZZ_SEED ?? 1);
const ADMIN_TOKEN = "fuzz-admin-token-0123456789";
const IN_FLIGHT = 6;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
}

interface Operation {
  method: string;
  /** the OpenAPI path, `{name}` for parameters */
  path: string;
  body?: JsonSchema;
  query: JsonSchema | undefined;
}

type Random = () => number;
const pick = <T>(random: Random, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)] as T;

const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

/** raw JSON texts that break parsers or validation in one way or another */
const HOSTILE_BODIES = [
  "",
  "{",
  "null",
  "[]",
  '"text"',
  "1e999",
  "{}",
  '{"a": "\\u0000"}',
  '{"a": "\\ud800"}',
  deep(10_000, "[", "]"),
  `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
  `{"x": "${"y".repeat(100_000)}"}`,
  "\u0000\u0001\u0002",
  "{\"name\": 'single quotes'}",
];

/** values a field may be given instead of the one it expects */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  1e308,
  -1e308,
  "",
  " ",
  "a\u0000b",
  "\u0000",
  "\u0007\u001b[31m",
  "\ud800",
  "\udfff-lone",
  "x".repeat(100_000),
  "99999999999999999999999",
  "2026-02-30",
  "2026-13-01T00:00:00.000Z",
  "<script>alert(1)</script>",
  "'; DROP TABLE tenants; --",
  [],
  [null],
  {},
  { nested: { deeper: [1, "2", { x: null }] } },
  JSON.parse(deep(200, "[", "]")),
];

/** path and query texts, already percent-encoded where they must be */
const HOSTILE_TEXTS = [
  "a%00b",
  "%00",
  "%ff",
  "%ud800",
  "99999999999999999999999",
  "-1",
  "1.5",
  "0",
  "%20",
  "x".repeat(3_000),
  "..%2F..%2Fetc%2Fpasswd",
  "%E2%80%AE",
  "1e308",
  "null",
];

const b64 = (text: string) => Buffer.from(text, "latin1").toString("base64");

/** Authorization headers that are not what they claim: bad base64, bad percent-escapes, no colon, junk tokens */
const HOSTILE_AUTHORIZATIONS = [
  "Basic %%%",
  "Basic !!!!",
  "Basic abcde",
  `Basic ${b64("no-colon")}`,
  `Basic ${b64("client%zz:secret")}`,
  `Basic ${b64("client:%E0%A4%A")}`,
  `Basic ${b64("%00:secret")}`,
  `Basic ${b64("\u00ff\u00fe:\u0000")}`,
  `Basic ${b64(`${"a".repeat(5_000)}:b`)}`,
  "Basic",
  "Bearer",
  "Bearer a.b.c",
  "Bearer %ff",
  `Bearer ${"x".repeat(8_000)}`,
  "Digest username=x",
];

/** form bodies for the token endpoint */
const HOSTILE_FORMS = [
  "",
  "grant_type=client_credentials",
  "grant_type=client_credentials&client_id=%zz&client_secret=%",
  "grant_type=client_credentials&client_id=a%00b&client_secret=x",
  "grant_type=client_credentials&client_id=%ED%A0%80&client_secret=x",
  "grant_type=password&grant_type=client_credentials",
  `grant_type=client_credentials&client_id=${"x".repeat(100_000)}&client_secret=y`,
  "a=1&a=2&a=3",
  "%",
];

/** a value valid for the schema, as far as a small generator can tell */
function validFor(schema: JsonSchema | undefined, random: Random, depth = 0): unknown {
  if (schema === undefined || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined) return pick(random, schema.enum);
  if (schema.anyOf !== undefined) return validFor(schema.anyOf[0], random, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name]) => (schema.required ?? []).includes(name) || random() < 0.5)
          .map(([name, property]) => [name, validFor(property, random, depth + 1)]),
      );
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        validFor(schema.items, random, depth + 1),
      );
    case "integer":
      return Math.max(1, schema.minimum ?? 1);
    case "number":
      return Math.max(1, schema.minimum ?? 1);
    case "boolean":
      return random() < 0.5;
    case "string":
      if (schema.format === "mizan-datetime") return "2026-01-15T10:00:00.000Z";
      if (schema.format === "mizan-date" || schema.format === "mizan-iso-date") return "2026-01-15";
      if (schema.format === "mizan-any-datetime") return "2026-01-15T10:00:00Z";
      if (schema.format === "email") return "a@example.sa";
      return `v${Math.floor(random() * 1_000)}`.padEnd(Math.max(2, schema.minLength ?? 0), "x");
    default:
      return "v";
  }
}

/** the body with one field (at any depth) made hostile */
function mutated(body: unknown, random: Random): unknown {
  if (typeof body !== "object" || body === null) return pick(random, HOSTILE_VALUES);
  const copy = Array.isArray(body) ? [...body] : { ...(body as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (keys.length === 0) return pick(random, HOSTILE_VALUES);
  const key = pick(random, keys);
  const current = (copy as Record<string, unknown>)[key];
  (copy as Record<string, unknown>)[key] =
    typeof current === "object" && current !== null && random() < 0.5
      ? mutated(current, random)
      : pick(random, HOSTILE_VALUES);
  return copy;
}

/** JSON text that keeps a lone surrogate as its escape (JSON.stringify writes it as one too) */
const jsonOf = (value: unknown): string => JSON.stringify(value);

describe("fuzz: every route, hostile input, over real HTTP", () => {
  let ctx: TestContext;
  let base: string;
  let operations: Operation[];
  let bearer: string;

  before(async () => {
    ctx = await startTestApp({ MIZAN_ADMIN_TOKEN: ADMIN_TOKEN });
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    bearer = await tokenFor(ctx.app, ctx.tenant);
    const openapi = (await ctx.app.inject({ method: "GET", url: "/openapi.json" })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
            parameters?: { in: string; name: string; schema?: JsonSchema }[];
          }
        >
      >;
    };
    operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ["get", "post", "patch", "put", "delete"].includes(method))
        .map(([method, op]) => {
          const query = (op.parameters ?? []).filter((p) => p.in === "query");
          return {
            method: method.toUpperCase(),
            path,
            body: op.requestBody?.content?.["application/json"]?.schema,
            query:
              query.length === 0
                ? undefined
                : {
                    type: "object",
                    properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
                  },
          };
        }),
    );
  });
  after(() => ctx.close());

  function headersFor(path: string): Record<string, string> {
    if (path.startsWith("/admin/")) return { authorization: `Bearer ${ADMIN_TOKEN}` };
    if (path.startsWith("/v1/")) return { authorization: `Bearer ${bearer}` };
    return { "access-key": ctx.tenant.apiKey };
  }

  /** one hostile request for an operation */
  function requestFor(op: Operation, random: Random): { url: string; init: RequestInit; shown: string } {
    const strategy = random();
    let url = op.path.replaceAll(/\{(\w+)\}/g, (_, name: string) =>
      name === "tenant" && random() < 0.9
        ? ctx.tenant.name
        : strategy < 0.35
          ? pick(random, HOSTILE_TEXTS)
          : `p${Math.floor(random() * 100)}`,
    );
    if (op.query !== undefined || random() < 0.2) {
      const fields = Object.keys(op.query?.properties ?? { q: {} });
      const name = pick(random, fields);
      url += `?${name}=${pick(random, HOSTILE_TEXTS)}&${name}=${pick(random, HOSTILE_TEXTS)}`;
    }
    const headers: Record<string, string> = { ...headersFor(op.path) };
    if (op.path.startsWith("/v1/") && random() < (op.path === "/v1/auth/token" ? 0.7 : 0.15))
      headers.authorization = pick(random, HOSTILE_AUTHORIZATIONS);
    if (op.path === "/v1/claims/batch/upload" && random() < 0.2) headers["content-encoding"] = "gzip";
    let body: string | undefined;
    if (op.path === "/v1/auth/token") {
      body = pick(random, HOSTILE_FORMS);
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (op.method !== "GET" && op.method !== "DELETE" && random() < 0.05) {
      // no body and no content type at all
    } else if (op.method !== "GET" && op.method !== "DELETE") {
      body =
        strategy < 0.6 ? jsonOf(mutated(validFor(op.body, random), random)) : pick(random, HOSTILE_BODIES);
      headers["content-type"] =
        random() < 0.9
          ? "application/json"
          : pick(random, [
              "text/plain",
              "application/xml",
              "application/json; charset=utf-16",
              "multipart/form-data",
            ]);
    }
    // the headers a reproduction needs: those that are not the operation's usual credentials
    const usual = headersFor(op.path);
    const unusual = Object.fromEntries(
      Object.entries(headers).filter(([name, value]) => usual[name] !== value && name !== "content-type"),
    );
    const init: RequestInit = { method: op.method, headers, ...(body === undefined ? {} : { body }) };
    return {
      url,
      init,
      shown: `${op.method} ${url.slice(0, 200)} ${JSON.stringify(unusual)} ${body === undefined ? "" : body.slice(0, 160)}`,
    };
  }

  it(`answers ${REQUESTS} hostile requests below 500, none dropped (seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    const planned = Array.from({ length: REQUESTS }, () => requestFor(pick(random, operations), random));
    const failures: string[] = [];
    let next = 0;
    async function worker() {
      for (let i = next++; i < planned.length; i = next++) {
        const { url, init, shown } = planned[i] as (typeof planned)[number];
        try {
          const res = await fetch(`${base}${url}`, init);
          const text = await res.text();
          if (res.status >= 500) failures.push(`${res.status} ${shown} -> ${text.slice(0, 200)}`);
        } catch (error) {
          failures.push(`no answer (${(error as Error).cause ?? (error as Error).message}) ${shown}`);
        }
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    assert.ok(operations.length > 60, `${operations.length} operations found`);
    assert.deepEqual(failures.slice(0, 30), [], `${failures.length} of ${REQUESTS} requests failed`);
  });
});
