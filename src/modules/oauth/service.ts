import { hashSecret, secretsEqual } from "../../platform/auth/credentials.js";
import type { Db } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import { credentialRepo } from "../tenants/repo.js";
import { TOKEN_SCOPE, TOKEN_SECONDS, type TokenService } from "./tokens.js";

export interface TokenRequest {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  /** `Authorization: Basic base64(client_id:client_secret)`, the other way a client may authenticate */
  authorization?: string;
}

/** base64 as RFC 4648 spells it (padding optional, as some clients leave it out) */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UNSTORABLE = /\0|\p{Cs}/u;

/** malformed Basic credentials fail client authentication (RFC 6749 section 5.2), saying why */
const malformed = (why: string) =>
  new AppError("OAUTH_INVALID_CLIENT", `Client authentication failed: the Basic credentials ${why}`);

/**
 * `Authorization: Basic` credentials (RFC 6749 section 2.3.1): base64 of the form-encoded id, a colon
 * and the form-encoded secret
 */
function basicCredentials(encoded: string): { clientId: string; secret: string } {
  if (!BASE64.test(encoded) || encoded.length % 4 === 1) throw malformed("are not base64");
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw malformed("hold no ':' between client_id and client_secret");
  let credentials: { clientId: string; secret: string };
  try {
    credentials = {
      clientId: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    throw malformed("hold a malformed percent-escape");
  }
  // no stored id holds a NUL or an unpaired surrogate, which the database could not even compare
  if (UNSTORABLE.test(credentials.clientId)) throw malformed("name no client");
  return credentials;
}

/** client credentials from the form, or from HTTP Basic */
function credentialsOf(request: TokenRequest): { clientId: string; secret: string } | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(request.authorization ?? "")?.[1];
  if (basic !== undefined) return basicCredentials(basic);
  if (request.client_id === undefined || request.client_secret === undefined) return undefined;
  return { clientId: request.client_id, secret: request.client_secret };
}

/** POST /v1/auth/token: the client credentials grant */
export async function issueToken(db: Db, tokens: TokenService, request: TokenRequest) {
  if (request.grant_type === undefined) throw new AppError("OAUTH_INVALID_REQUEST", "grant_type is required");
  if (request.grant_type !== "client_credentials")
    throw new AppError("OAUTH_UNSUPPORTED_GRANT_TYPE", "Only the client_credentials grant is supported");
  const credentials = credentialsOf(request);
  if (credentials === undefined) throw new AppError("OAUTH_INVALID_CLIENT", "Client authentication failed");
  const client = await credentialRepo.findOauthClient(db, credentials.clientId);
  // the same answer, and a comparison either way, whether the client is unknown or its secret wrong
  const matches = secretsEqual(hashSecret(credentials.secret), client?.secret_hash ?? "-");
  if (client === undefined || !matches)
    throw new AppError("OAUTH_INVALID_CLIENT", "Client authentication failed");
  const accessToken = await tokens.issue({
    tenantId: client.tenant_id,
    tenantName: client.tenant,
    clientId: credentials.clientId,
  });
  return { access_token: accessToken, token_type: "Bearer", expires_in: TOKEN_SECONDS, scope: TOKEN_SCOPE };
}
