import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SignJWT } from "jose";
import { createTokenService } from "../../../src/modules/oauth/tokens.js";
import { startTestApp, type TestContext, testConfig } from "../../helpers.js";
import { batchBody, batchClaim, claimsCall, tokenFor, uploadBatch } from "../claims-batch/fixtures.js";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("OAuth 2.0 client credentials and bearer tokens", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  const token = (payload: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: "POST",
      url: "/v1/auth/token",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      payload,
    });

  it("issues a 3600 s bearer token for form credentials and for HTTP Basic", async () => {
    const { clientId, clientSecret } = ctx.tenant;
    const byForm = await token(
      form({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
    );
    assert.equal(byForm.statusCode, 200, byForm.body);
    const body = byForm.json();
    assert.deepEqual(
      { ...body, access_token: typeof body.access_token },
      { access_token: "string", token_type: "Bearer", expires_in: 3600, scope: "read write" },
    );
    assert.equal(byForm.headers["cache-control"], "no-store");
    const [header, payload] = (body.access_token as string)
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
    assert.equal(header.typ, "at+jwt");
    assert.equal(payload.exp - payload.iat, 3600);
    assert.equal(payload.client_id, clientId);
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString("base64");
    const byBasic = await token(form({ grant_type: "client_credentials" }), {
      authorization: `Basic ${basic}`,
    });
    assert.equal(byBasic.statusCode, 200, byBasic.body);
  });

  it("answers each token error in the spec's body", async () => {
    const { clientId, clientSecret } = ctx.tenant;
    for (const [payload, headers, status, error] of [
      [
        form({ grant_type: "client_credentials", client_id: clientId, client_secret: "wrong" }),
        {},
        401,
        "invalid_client",
      ],
      [
        form({ grant_type: "client_credentials", client_id: "mzc_nobody", client_secret: clientSecret }),
        {},
        401,
        "invalid_client",
      ],
      [form({ grant_type: "client_credentials" }), {}, 401, "invalid_client"],
      [
        form({ grant_type: "client_credentials" }),
        { authorization: "Basic bm90LWJhc2U2NA" },
        401,
        "invalid_client",
      ],
      [form({ client_id: clientId, client_secret: clientSecret }), {}, 400, "invalid_request"],
      [
        form({ grant_type: "password", client_id: clientId, client_secret: clientSecret }),
        {},
        400,
        "unsupported_grant_type",
      ],
    ] as const) {
      const res = await token(payload, headers);
      assert.equal(res.statusCode, status, payload);
      assert.equal(res.json().error, error, payload);
      assert.equal(typeof res.json().error_description, "string");
    }
  });

  it("refuses malformed Basic credentials 401 invalid_client, saying why, never 500", async () => {
    const b64 = (text: string) => Buffer.from(text, "latin1").toString("base64");
    for (const [basic, why] of [
      ["%%%", /not base64/],
      ["!!!!", /not base64/],
      ["abcde", /not base64/],
      [b64("no-colon-here"), /no ':'/],
      [b64("client%zz:secret"), /malformed percent-escape/],
      [b64("client:%E0%A4%A"), /malformed percent-escape/],
      [b64("%ud800:secret"), /malformed percent-escape/],
      [b64("%00:secret"), /name no client/],
      [b64("%ED%A0%80:secret"), /malformed percent-escape/],
    ] as const) {
      const res = await token(form({ grant_type: "client_credentials" }), {
        authorization: `Basic ${basic}`,
      });
      assert.equal(res.statusCode, 401, `${basic}: ${res.body}`);
      assert.equal(res.json().error, "invalid_client", basic);
      assert.match(res.json().error_description, why, basic);
    }
  });

  it("refuses a missing, invalid or expired bearer token: unauthorized, unauthorized, invalid_token", async () => {
    const upload = (headers: Record<string, string>) =>
      ctx.app.inject({
        method: "GET",
        url: "/v1/claims/batch/00000000-0000-0000-0000-000000000000",
        headers,
      });
    const missing = await upload({});
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().error, "unauthorized");
    assert.match(String(missing.headers["www-authenticate"]), /^Bearer/);
    const garbage = await upload({ authorization: "Bearer not.a.token" });
    assert.deepEqual([garbage.statusCode, garbage.json().error], [401, "unauthorized"]);
    const forged = await new SignJWT({
      client_id: ctx.tenant.clientId,
      tenant: ctx.tenant.name,
      tid: ctx.tenant.id,
    })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
      .setIssuer(testConfig().publicUrl)
      .setAudience(testConfig().publicUrl)
      .setExpirationTime("1h")
      .sign(new Uint8Array(32));
    const wrongKey = await upload({ authorization: `Bearer ${forged}` });
    assert.deepEqual([wrongKey.statusCode, wrongKey.json().error], [401, "unauthorized"]);
    const tokens = await createTokenService(ctx.db, testConfig().publicUrl);
    const expired = await tokens.issue(
      { tenantId: ctx.tenant.id, tenantName: ctx.tenant.name, clientId: ctx.tenant.clientId },
      new Date(Date.now() - 2 * 3600_000),
    );
    const old = await upload({ authorization: `Bearer ${expired}` });
    assert.deepEqual([old.statusCode, old.json().error], [401, "invalid_token"]);
    assert.match(String(old.headers["www-authenticate"]), /invalid_token/);
  });

  it("keeps each tenant to its own batches: another tenant's is 404", async () => {
    const other = await ctx.newTenant();
    const mine = await tokenFor(ctx.app, ctx.tenant);
    const theirs = await tokenFor(ctx.app, other);
    const accepted = await uploadBatch(ctx.app, mine, batchBody([batchClaim(1)]));
    assert.equal(accepted.statusCode, 202, accepted.body);
    const batchId = accepted.json().batch_id;
    for (const url of [`/v1/claims/batch/${batchId}`, `/v1/claims/batch/${batchId}/results`]) {
      const res = await claimsCall(ctx.app, theirs, { method: "GET", url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error.code, "NOT_FOUND");
    }
  });
});
