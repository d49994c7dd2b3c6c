import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import type { Json } from "./bundles.js";
import { issuesOf, postMessage } from "./fixtures.js";
import { checkResponseMessage } from "./nphies-rules/rules.js";
import { shapeDifferences } from "./nphies-rules/shape.js";
import { loadTerminology } from "./nphies-rules/terminology.js";
import { PACK, PACK_ANSWERS, packAbsent, sample, setUpPackWorld } from "./pack.js";

/**
 * Every message of the official NPHIES implementer pack that a payer receives, posted over HTTP as it is:
 * answered with its response event, refused only when it is not a message a payer receives; and our
 * answers checked against the pack's validation rules and the shape of the pack's own answers.
 */

const CS = "http://nphies.sa/terminology/CodeSystem/";
const RESPONSE: Record<string, string> = {
  "priorauth-request": "priorauth-response",
  "claim-request": "claim-response",
  "eligibility-request": "eligibility-response",
  "cancel-request": "cancel-response",
  "status-check": "status-response",
  communication: "acknowledgement",
  "batch-request": "batch-response",
};

const headerOf = (bundle: Json): Json => bundle.entry[0].resource;
/** a transfer of care, or a resubmission or follow-up of an earlier request: held for a reviewer */
const isHeld = (claim: Json) =>
  (claim.extension ?? []).some(
    (extension: Json) => extension.url.endsWith("-transfer") && extension.valueBoolean,
  ) || (claim.related ?? []).some((related: Json) => related.relationship?.coding?.[0]?.code === "prior");
const focusOf = (bundle: Json): Json =>
  bundle.entry.find((entry: Json) => entry.fullUrl === headerOf(bundle).focus?.[0]?.reference)?.resource;

/** the response to `request`, checked to be its response message */
async function answerOf(ctx: TestContext, tenant: TenantClient, request: Json): Promise<Json> {
  const res = await postMessage(ctx, tenant, request);
  assert.equal(res.statusCode, 200, res.body.slice(0, 2000));
  assert.match(String(res.headers["content-type"]), /^application\/fhir\+json/);
  const response = res.json();
  const header = headerOf(response);
  const event = headerOf(request).eventCoding.code;
  assert.equal(header.resourceType, "MessageHeader");
  assert.deepEqual(header.eventCoding, { system: `${CS}ksa-message-events`, code: RESPONSE[event] });
  assert.equal(header.response.identifier, headerOf(request).id);
  assert.equal(header.response.code, "ok");
  assert.deepEqual(header.sender.identifier, headerOf(request).destination[0].receiver.identifier);
  assert.equal(header.destination[0].receiver.identifier.value, headerOf(request).sender.identifier.value);
  return response;
}

const terminology = loadTerminology() ?? new Map();
/** the rules our answer breaks, as `rule path: message` */
const violationsOf = (response: Json, request: Json) =>
  checkResponseMessage(response, request, terminology).map((v) => `${v.rule} ${v.path}: ${v.message}`);

describe("NPHIES implementer pack: every sample a payer receives", { skip: packAbsent }, () => {
  let ctx: TestContext;
  let stranger: TenantClient;
  let payer: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    stranger = ctx.tenant;
    payer = await ctx.newTenant();
    await setUpPackWorld(payer);
  });
  after(() => ctx.close());

  for (const prefix of PACK.claims)
    it(`answers claim sample ${prefix} of a member the payer does not hold with outcome error, within the rules`, async () => {
      const request = sample(prefix);
      const response = await answerOf(ctx, stranger, request);
      const claimResponse = focusOf(response);
      assert.equal(claimResponse.resourceType, "ClaimResponse");
      assert.equal(claimResponse.outcome, "error");
      assert.equal(claimResponse.error[0].code.coding[0].system, `${CS}adjudication-error`);
      assert.equal(claimResponse.error[0].code.coding[0].code, "1658", claimResponse.disposition);
      assert.deepEqual(violationsOf(response, request), []);
    });

  for (const prefix of PACK.claims)
    it(`adjudicates claim sample ${prefix} for the member the payer holds, item by item, within the rules`, async () => {
      const request = sample(prefix);
      const response = await answerOf(ctx, payer, request);
      const claimResponse = focusOf(response);
      const claim = request.entry[1].resource;
      if (isHeld(claim)) {
        // a transfer of care waits for a reviewer to name the receiving provider (authorization test case
        // 9), a resubmission or follow-up (Claim.related prior) for a reviewer to look again (6, 7)
        assert.equal(claimResponse.outcome, "queued");
        assert.deepEqual(violationsOf(response, request), []);
        return;
      }
      assert.equal(claimResponse.outcome, "complete", claimResponse.disposition);
      assert.deepEqual(
        claimResponse.item.map((item: Json) => item.itemSequence),
        claim.item.map((item: Json) => item.sequence),
      );
      assert.deepEqual(claimResponse.request.identifier, claim.identifier[0]);
      assert.deepEqual(violationsOf(response, request), []);
      // one object: the JSON API shows the request under the Claim's identifier
      const stored = await payer.call("GET", `/approval-request/get-one/${claim.identifier[0].value}`);
      assert.equal(stored.statusCode, 200, stored.body);
      assert.equal(stored.json().items.length, claim.item.length);
    });

  for (const [requestPrefix, answerPrefix] of Object.entries(PACK_ANSWERS).filter(([prefix]) =>
    PACK.claims.includes(prefix as (typeof PACK.claims)[number]),
  ))
    it(`answers sample ${requestPrefix} in the shape of the pack's own answer ${answerPrefix}`, async () => {
      const request = sample(requestPrefix);
      // a new Claim identifier and MessageHeader id: the request itself was adjudicated above
      const claim = request.entry[1].resource;
      claim.identifier[0].value += "-shape";
      headerOf(request).id = randomUUID();
      // answered at once rather than held for the transfer's receiving provider (tested apart)
      claim.extension = (claim.extension ?? []).filter(
        (extension: Json) => !extension.url.endsWith("-transfer"),
      );
      const ours = await answerOf(ctx, payer, request);
      // elements the pack's answers carry that ours leave out on purpose: a note number (no process
      // notes), the transfer extensions of a transfer approval, the payee type, an adjudication without
      // an amount
      const allowed = [
        "ClaimResponse.item.noteNumber",
        "ClaimResponse.processNote",
        "ClaimResponse.payeeType",
        "ClaimResponse.extension[http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-transferAuthorizationNumber]",
        "ClaimResponse.extension[http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-transferAuthorizationPeriod]",
        "ClaimResponse.extension[http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-transferAuthorizationProvider]",
        "ClaimResponse.extension[http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-adjudication-reissue]",
        "ClaimResponse.item.extension[http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-patientInvoice]",
      ];
      assert.deepEqual(shapeDifferences(ours, sample(answerPrefix), allowed), []);
    });

  it("answers the batch request claim by claim, each as if sent alone", async () => {
    const request = sample("16");
    const response = await answerOf(ctx, stranger, request);
    const inner = response.entry.slice(1).map((entry: Json) => entry.resource);
    assert.equal(inner.length, 2);
    inner.forEach((answer: Json, index: number) => {
      const sent = request.entry[index + 1].resource;
      assert.equal(headerOf(answer).eventCoding.code, "claim-response");
      assert.equal(headerOf(answer).response.identifier, headerOf(sent).id);
      assert.deepEqual(focusOf(answer).request.identifier, sent.entry[1].resource.identifier[0]);
      assert.deepEqual(violationsOf(answer, sent), []);
    });
    assert.deepEqual(
      headerOf(response).focus.map((focus: Json) => focus.reference),
      response.entry.slice(1).map((entry: Json) => entry.fullUrl),
    );
    const again = await postMessage(ctx, stranger, request);
    assert.deepEqual(again.json(), response, "a resent batch is answered the same");
  });

  for (const prefix of [...PACK.eligibility, "17a", "9b", "18b", "18c"])
    it(`answers sample ${prefix} with its response event`, async () => {
      const request = sample(prefix);
      const response = await answerOf(ctx, stranger, request);
      assert.deepEqual(violationsOf(response, request), []);
    });

  for (const prefix of PACK.notForPayer)
    it(`refuses sample ${prefix}, a message a payer does not receive, naming its event`, async () => {
      const issues = issuesOf(await postMessage(ctx, stranger, sample(prefix)));
      assert.deepEqual(
        issues.map((issue) => issue.expression?.[0]),
        ["Bundle.entry[0].resource.eventCoding.code"],
      );
    });
});
