import type { FastifyRequest } from "fastify";
import { secretsEqual } from "../../platform/auth/credentials.js";
import type { Db } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import { findTenant } from "../tenants/service.js";
import type { Form } from "./forms.js";
import type { PageContext } from "./layout.js";
import { findSession, SESSION_COOKIE } from "./sessions.js";

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=");
  }
  return undefined;
}

/**
 * The signed-in reviewer of the path's tenant, or undefined: then every page is the sign-in form, whether
 * the tenant exists or not (the console does not tell which tenants exist). A session of another tenant is
 * none.
 */
export async function reviewerOf(db: Db, request: FastifyRequest<{ Params: { tenant: string } }>) {
  const token = cookieOf(request);
  if (token === undefined) return undefined;
  const tenant = await findTenant(db, request.params.tenant);
  const session = tenant && (await findSession(db, tenant.id, token, new Date()));
  if (tenant === undefined || session === undefined) return undefined;
  const context: PageContext = {
    tenant: tenant.name,
    reviewer: { username: session.username, name: session.name, csrf: session.csrf_token },
  };
  return { tenant, session, token, context };
}

export type Reviewer = NonNullable<Awaited<ReturnType<typeof reviewerOf>>>;

/** a signed-in reviewer's write: the session, the CSRF token its forms carry, and who acts */
export async function writerOf(db: Db, request: FastifyRequest<{ Params: { tenant: string }; Body: Form }>) {
  const found = await reviewerOf(db, request);
  if (found === undefined || !secretsEqual(request.body.csrf ?? "", found.session.csrf_token))
    throw new AppError("E_FORBIDDEN_403", "Sign in again: the session ended or the form is stale");
  const actor = {
    tenantId: found.tenant.id,
    actor: `console:${found.session.username}`,
    requestId: request.id,
  };
  return { ...found, actor };
}
