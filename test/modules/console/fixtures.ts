import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import { setPasswordCostForTests } from "../../../src/modules/users/passwords.js";
import type { TenantClient, TestContext } from "../../helpers.js";
import { createRequest, expectStatus, labTest } from "../prior-auth/fixtures.js";

// the console's tests sign in often: a 4 MiB scrypt instead of the service's 128 MiB (test/modules/users
// checks the real cost)
setPasswordCostForTests({ N: 2 ** 12, r: 8, p: 1 });

export const PASSWORD = "correct horse battery";

/** a reviewer user who may sign in */
export async function createReviewer(tenant: TenantClient, username = "rev1", name?: string) {
  await expectStatus(
    tenant.call("POST", "/user/create", { username, password: PASSWORD, ...(name ? { name } : {}) }),
    201,
  );
}

/** the member the held request is about (OUTLIER-1), named as given: markup in a name must show as text */
export async function createOutlierMember(tenant: TenantClient, name: string, gender: "MALE" | "FEMALE") {
  await expectStatus(
    tenant.call("POST", "/member/create", {
      member_id: "OUTLIER-1",
      national_id: "1012345678",
      name,
      gender,
      marital_status: "MARRIED",
      date_of_birth: gender === "MALE" ? "1984-02-11T00:00:00.000Z" : "1990-05-01T00:00:00.000Z",
    }),
    201,
  );
}

/**
 * In a lightweight tenant: six peers approved for LAB-1 at about 100, then an outlier at 1,200 that the
 * engine holds for a reviewer (with a CBC approved beside it). Answers the held request's transaction id.
 */
export async function heldRequest(tenant: TenantClient, overrides: Record<string, unknown> = {}) {
  for (const [n, amount] of [100, 95, 105, 100, 98, 102].entries())
    await createRequest(tenant, { member_id: `PEER-${n}`, items: [labTest({ claimed_amount: amount })] });
  const { body, created } = await createRequest(tenant, {
    member_id: "OUTLIER-1",
    items: [
      labTest({ claimed_amount: 1200, erp_item_id: "L1" }),
      labTest({ service_code: "CBC-1", nphies_code: "85025", claimed_amount: 80, erp_item_id: "C1" }),
    ],
    ...overrides,
  });
  assert.equal(created.items_results[0].decision, "PENDING_REVIEW", JSON.stringify(created.items_results));
  return body.transaction_id as string;
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** posts a console form (`fields` URL-encoded) with the session cookie */
export function postForm(
  ctx: TestContext,
  url: string,
  fields: Record<string, string>,
  cookie?: string,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: "POST",
    url,
    headers: { ...FORM, ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** signs in through the form; answers the session cookie and the page's CSRF token */
export async function signIn(ctx: TestContext, tenant: TenantClient, username = "rev1", password = PASSWORD) {
  const res = await postForm(ctx, `/${tenant.name}/console/sign-in`, { username, password });
  assert.equal(res.statusCode, 303, res.body);
  const cookie = String(res.headers["set-cookie"]).split(";")[0] as string;
  const queue = await ctx.app.inject({ method: "GET", url: `/${tenant.name}/console/`, headers: { cookie } });
  const csrf = /name="csrf" value="([^"]+)"/.exec(queue.body)?.[1];
  assert.ok(csrf, "the signed-in page carries the CSRF token");
  return { cookie, csrf };
}

export const getPage = (ctx: TestContext, url: string, cookie?: string) =>
  ctx.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
