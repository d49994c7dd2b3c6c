import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TenantActor } from "../audit/audit.js";
import { AppError } from "./errors.js";
import { enforceRateLimit, type RateLimiter } from "./rate-limit.js";

/** what a valid access token says */
export interface TokenClaims {
  tenantId: number;
  tenantName: string;
  clientId: string;
}

export type VerifyOutcome = { ok: true; claims: TokenClaims } | { ok: false; reason: "invalid" | "expired" };

export type VerifyToken = (token: string) => Promise<VerifyOutcome>;

/**
 * Makes every route of `app` need `Authorization: Bearer <token>`: missing or invalid is 401
 * `unauthorized`, expired 401 `invalid_token` (the spec's bodies), with the RFC 6750 challenge. The
 * token names its tenant, so nothing of another tenant is ever in reach.
 */
export function requireBearerToken(app: FastifyInstance, verify: VerifyToken, limiter: RateLimiter): void {
  app.decorateRequest("actor", undefined as unknown as TenantActor);
  app.addHook("onRequest", async (request: FastifyRequest, reply) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    if (token === undefined) {
      reply.header("www-authenticate", 'Bearer realm="mizan"');
      throw new AppError("OAUTH_UNAUTHORIZED", "A bearer token is required");
    }
    const verified = await verify(token);
    if (!verified.ok) {
      const expired = verified.reason === "expired";
      reply.header("www-authenticate", `Bearer realm="mizan", error="invalid_token"`);
      throw new AppError(
        expired ? "OAUTH_INVALID_TOKEN" : "OAUTH_UNAUTHORIZED",
        expired ? "The access token has expired" : "The access token is not valid",
      );
    }
    enforceRateLimit(limiter, `client:${verified.claims.clientId}`, reply);
    request.actor = {
      tenantId: verified.claims.tenantId,
      actor: `oauth-client:${verified.claims.clientId}`,
      requestId: request.id,
    };
  });
}
