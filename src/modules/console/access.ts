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

/** the tenant whose console the path names; a name no tenant has is no console (404) */
export async function consoleTenantOf(db: Db, name: string) {
  const tenant = await findTenant(db, name);
  if (tenant === undefined) throw new AppError("E_ROUTE_NOT_FOUND_404", "No such console");
  return tenant;
}

/** the tenant of the path and its signed-in reviewer, when there is one (a session of another tenant is none) */
export async function reviewerOf(db: Db, request: FastifyRequest<{ Params: { tenant: string } }>) {
  const tenant = await consoleTenantOf(db, request.params.tenant);
  const token = cookieOf(request);
  const session = token === undefined ? undefined : await findSession(db, tenant.id, token, new Date());
  const context: PageContext = {
    tenant: tenant.name,
    reviewer: session && { username: session.username, name: session.name, csrf: session.csrf_token },
  };
  return { tenant, session, token, context };
}

/** a signed-in reviewer's write: the session, the CSRF token its forms carry, and who acts */
export async function writerOf(db: Db, request: FastifyRequest<{ Params: { tenant: string }; Body: Form }>) {
  const found = await reviewerOf(db, request);
  if (found.session === undefined || !secretsEqual(request.body.csrf ?? "", found.session.csrf_token))
    throw new AppError("E_FORBIDDEN_403", "Sign in again: the session ended or the form is stale");
  const actor = {
    tenantId: found.tenant.id,
    actor: `console:${found.session.username}`,
    requestId: request.id,
  };
  return { ...found, session: found.session, actor };
}

export type Reviewer = Awaited<ReturnType<typeof reviewerOf>>;
