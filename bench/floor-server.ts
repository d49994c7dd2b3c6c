/**
 * The HTTP floor: a bare Fastify process serving the bench's routes at the app's paths, each validating
 * the request with the app's own TypeBox schema and validator compiler, then answering a constant. No
 * database, authentication or logging: what is left of a figure is the HTTP round trip and the check.
 * Run by bench/floors.ts as `node --import tsx bench/floor-server.ts` with FLOOR_PORT.
 */
import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import { MemberCreateBody } from "../src/modules/members/schemas.js";
import { NetworkFindAllQuery, NetworkPage } from "../src/modules/networks/schemas.js";
import { CreateBody } from "../src/modules/prior-auth/schemas.js";
import { WebhookIdParams } from "../src/modules/webhooks/schemas.js";
import { validatorCompiler } from "../src/platform/http/validation.js";

const API = "/:tenant/v4.0/health";

const app = Fastify({ logger: false });
app.setValidatorCompiler(validatorCompiler);
// a FHIR message is parsed as the JSON it is; its own checks are the app's work, not the floor's
app.addContentTypeParser(
  "application/fhir+json",
  { parseAs: "string" },
  app.getDefaultJsonParser("error", "error"),
);

app.get("/ready", async () => ({ status: "ok" }));

app.post(`${API}/approval-request/create`, { schema: { body: CreateBody } }, async (request, reply) =>
  reply.status(201).send({ transaction_id: (request.body as { transaction_id: string }).transaction_id }),
);

app.post(`${API}/member/create`, { schema: { body: MemberCreateBody } }, async (request, reply) =>
  reply.status(201).send({ member_id: (request.body as { member_id: string }).member_id }),
);

// a page of ten networks, the size of the find-all figures' first page
const PAGE = {
  total_count: 1000,
  code: 200,
  message: "Networks retrieved successfully",
  data: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Network 000${i}`, is_vip: i % 5 === 0 })),
};
app.get(
  `${API}/network/find-all`,
  { schema: { querystring: NetworkFindAllQuery, response: { 200: NetworkPage } } },
  async () => PAGE,
);

app.post(`${API}/webhook/:id/test`, { schema: { params: WebhookIdParams } }, async (_request, reply) =>
  reply.status(202).send({ event_id: randomUUID(), delivery_id: 1, message: "queued" }),
);

app.post("/:tenant/fhir/$process-message", async (_request, reply) =>
  reply.status(200).send({ resourceType: "Bundle", type: "message" }),
);

await app.listen({ port: Number(process.env.FLOOR_PORT), host: "127.0.0.1" });
