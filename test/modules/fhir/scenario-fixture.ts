import assert from "node:assert/strict";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { type Receiver, startReceiver } from "../../platform/events/webhook-receiver.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import type { Json } from "./bundles.js";
import { getOne, postAnswered, setUpFhirTenant } from "./fixtures.js";
import { checkResponseMessage } from "./nphies-rules/rules.js";
import { loadTerminology } from "./nphies-rules/terminology.js";
import { priceScenarioCodes } from "./scenario-messages.js";

/** A payer for the NPHIES test cases: the FHIR tenant, its NPHIES endpoint, and the steps' verbs. */

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const terminology = loadTerminology() ?? new Map();

export const focusOf = (bundle: Json): Json =>
  bundle.entry.find((entry: Json) => entry.fullUrl === bundle.entry[0].resource.focus?.[0]?.reference)
    ?.resource;

export const outcomeOf = (element: Json) =>
  element.extension?.find((extension: Json) => extension.url === `${SD}extension-adjudication-outcome`)
    ?.valueCodeableConcept.coding[0].code;

/** the rules of the pack a message of the payer's breaks, as `rule path: message` */
export const violationsOf = (response: Json, request: Json | undefined) =>
  checkResponseMessage(response, request, terminology).map((v) => `${v.rule} ${v.path}: ${v.message}`);

export interface ScenarioPayer {
  ctx: TestContext;
  tenant: TenantClient;
  /** posts a request message; its answer, checked against the pack's rules */
  send(request: Json): Promise<Json>;
  /** what the payer sent its NPHIES endpoint about a Claim identifier, once `count` messages came */
  sentAbout(claim: Json, count: number): Promise<{ event: string; focus: Json; bundle: Json }[]>;
  /** a reviewer's decision on the request of a Claim identifier */
  decide(claim: Json, body: Json): Promise<void>;
  getOne(claim: Json): Promise<Json>;
  close(): Promise<void>;
}

export async function startScenarioPayer(): Promise<ScenarioPayer> {
  const ctx = await startTestApp();
  const tenant = ctx.tenant;
  await setUpFhirTenant(tenant);
  await priceScenarioCodes(tenant);
  const nphies: Receiver = await startReceiver();
  await expectStatus(
    tenant.call("POST", "/webhook/create", { webhook_url: nphies.url, hook_type: "NPHIES" }),
    201,
  );
  const about = (claim: Json) =>
    nphies.received
      .map((delivery) => JSON.parse(delivery.body))
      .filter((bundle: Json) => JSON.stringify(focusOf(bundle)).includes(JSON.stringify(claim.value)))
      .map((bundle: Json) => ({
        event: bundle.entry[0].resource.eventCoding.code,
        focus: focusOf(bundle),
        bundle,
      }));
  return {
    ctx,
    tenant,
    async send(request) {
      const response = (await postAnswered(ctx, tenant, request)).json();
      assert.deepEqual(violationsOf(response, request), [], "within the NPHIES validation rules");
      return response;
    },
    async sentAbout(claim, count) {
      const deadline = Date.now() + 30_000;
      while (about(claim).length < count) {
        if (Date.now() > deadline)
          throw new Error(`NPHIES got ${about(claim).length} of ${count} messages about ${claim.value}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return about(claim);
    },
    async decide(claim, body) {
      await expectStatus(
        tenant.call("PATCH", `/approval-request/update/${encodeURIComponent(claim.value)}`, {
          erp_reviewer_id: "rev1",
          ...body,
        }),
        200,
      );
    },
    getOne: (claim) => getOne(tenant, claim.value),
    async close() {
      await nphies.close();
      await ctx.close();
    },
  };
}
