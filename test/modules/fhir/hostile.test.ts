import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { claimMessage, headerOf, type Json, resourceOf } from "./bundles.js";
import { issuesOf, pathsOf, postMessage, setUpFhirTenant } from "./fixtures.js";

/**
 * What an attacker, or a broken sender, posts to the FHIR endpoint: each answered 4xx with an
 * OperationOutcome, fast, and nothing stored (no request, no recorded answer), the service still serving.
 */

describe("NPHIES FHIR: hostile messages", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpFhirTenant(tenant);
  });
  after(() => ctx.close());

  const messagesStored = async () =>
    (
      await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fhir_messages WHERE tenant_id = $1", [
        tenant.id,
      ])
    )[0]?.n;

  /** posts `body` for a Claim, expects `status` and nothing stored of it */
  async function refused(body: string | Json, status: number, claimId?: string) {
    const before = await messagesStored();
    const res = await postMessage(ctx, tenant, body);
    const issues = issuesOf(res, status);
    assert.equal(await messagesStored(), before, "no answer recorded");
    if (claimId !== undefined)
      assert.equal(
        (await tenant.call("GET", `/approval-request/get-one/${claimId}`)).statusCode,
        404,
        "no request stored",
      );
    return issues;
  }

  it("refuses a message nested 50,000 levels deep inside a resource, without exhausting the stack", async () => {
    const request = claimMessage();
    const deep = `${'{"url":"z","extension":['.repeat(50_000)}${"]}".repeat(50_000)}`;
    const text = JSON.stringify(request).replace('"extension":[', `"extension":[${deep},`);
    const issues = await refused(text, 400, resourceOf(request, "Claim").identifier[0].value);
    assert.match(issues[0]?.diagnostics ?? "", /nested deeper than 100 levels/);
    assert.equal((await postMessage(ctx, tenant, claimMessage())).statusCode, 200, "still serving");
  });

  it("refuses a message of tens of megabytes (an attachment of 30 MB) before reading it", async () => {
    const request = claimMessage();
    resourceOf(request, "Claim").supportingInfo.push({
      sequence: 2,
      category: {
        coding: [
          {
            system: "http://nphies.sa/terminology/CodeSystem/claim-information-category",
            code: "attachment",
          },
        ],
      },
      valueAttachment: { contentType: "application/pdf", data: "A".repeat(30 * 1024 * 1024) },
    });
    await refused(JSON.stringify(request), 413, resourceOf(request, "Claim").identifier[0].value);
  });

  it("refuses events a payer does not receive and events of no code system, naming the event", async () => {
    for (const code of [
      "advanced-authorization",
      "poll-request",
      "payment-notice",
      "claim-response",
      "made-up",
    ]) {
      const request = claimMessage();
      headerOf(request).eventCoding.code = code;
      assert.deepEqual(pathsOf(await postMessage(ctx, tenant, request)), [
        "Bundle.entry[0].resource.eventCoding.code",
      ]);
    }
  });

  it("refuses references that point nowhere, naming each", async () => {
    const request = claimMessage();
    const claim = resourceOf(request, "Claim");
    claim.patient.reference = "Patient/nobody";
    claim.insurance[0].coverage.reference = "urn:uuid:00000000-0000-0000-0000-000000000000";
    claim.provider.reference = "http://elsewhere.example/Organization/1";
    const issues = await refused(request, 400, claim.identifier[0].value);
    assert.deepEqual(issues.map((issue) => issue.expression?.[0]).sort(), [
      "Bundle.entry[1].resource.insurance[0].coverage.reference",
      "Bundle.entry[1].resource.patient.reference",
      "Bundle.entry[1].resource.provider.reference",
    ]);
  });

  it("refuses a Claim of more items than a request holds, and a bundle of more entries than a message holds", async () => {
    const request = claimMessage();
    const claim = resourceOf(request, "Claim");
    claim.item = Array.from({ length: 501 }, (_, index) => ({ ...claim.item[1], sequence: index + 1 }));
    assert.deepEqual(pathsOf(await postMessage(ctx, tenant, request)), ["Bundle.entry[1].resource.item"]);
    const crowded = claimMessage();
    crowded.entry.push(
      ...Array.from({ length: 1000 }, (_, index) => ({
        fullUrl: `urn:uuid:extra-${index}`,
        resource: { resourceType: "Basic", id: `b${index}` },
      })),
    );
    assert.deepEqual(pathsOf(await postMessage(ctx, tenant, crowded)), ["Bundle.entry"]);
  });

  it("refuses a resource that is not a JSON object where one belongs, and values of the wrong type", async () => {
    const request = claimMessage();
    resourceOf(request, "Claim").item[0].quantity.value = "lots";
    resourceOf(request, "Patient").birthDate = { year: 1990 };
    assert.deepEqual(pathsOf(await postMessage(ctx, tenant, request)).sort(), [
      "Bundle.entry[1].resource.item[0].quantity.value",
      "Bundle.entry[2].resource.birthDate",
    ]);
  });
});
