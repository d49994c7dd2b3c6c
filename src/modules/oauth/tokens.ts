import { randomBytes, randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../platform/db/db.js";
import type { TokenClaims, VerifyOutcome } from "../../platform/http/bearer-auth.js";

/** the spec's token lifetime */
export const TOKEN_SECONDS = 3600;
export const TOKEN_SCOPE = "read write";

/**
 * Signs and verifies access tokens (JWT, RFC 9068 profile, HS256). The key lives in the database, so
 * every node signs and verifies with the same one; it is made at the first start.
 */
export async function createTokenService(db: Db, issuer: string) {
  await db.query(
    `INSERT INTO token_signing_keys (secret) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM token_signing_keys)`,
    [randomBytes(32)],
  );
  const rows = await db.query<{ secret: Buffer | Uint8Array }>(
    "SELECT secret FROM token_signing_keys ORDER BY id DESC LIMIT 1",
  );
  const key = new Uint8Array((rows[0] as { secret: Uint8Array }).secret);
  return {
    async issue(claims: TokenClaims, now: Date = new Date()): Promise<string> {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({
        client_id: claims.clientId,
        tenant: claims.tenantName,
        tid: claims.tenantId,
        scope: TOKEN_SCOPE,
      })
        .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
        .setIssuer(issuer)
        .setSubject(claims.clientId)
        .setAudience(issuer)
        .setJti(randomUUID())
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + TOKEN_SECONDS)
        .sign(key);
    },

    async verify(token: string): Promise<VerifyOutcome> {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer,
          audience: issuer,
          algorithms: ["HS256"],
          typ: "at+jwt",
        });
        if (
          typeof payload.tid !== "number" ||
          typeof payload.tenant !== "string" ||
          typeof payload.client_id !== "string"
        )
          return { ok: false, reason: "invalid" };
        return {
          ok: true,
          claims: { tenantId: payload.tid, tenantName: payload.tenant, clientId: payload.client_id },
        };
      } catch (error) {
        return { ok: false, reason: error instanceof joseErrors.JWTExpired ? "expired" : "invalid" };
      }
    },
  };
}

export type TokenService = Awaited<ReturnType<typeof createTokenService>>;
