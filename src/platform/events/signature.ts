import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks signatures (docs/operator-contract.md section 7): `v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>`.
 * The key of a secret starting with `whsec_` is the base64-decoded rest; of any other secret, its UTF-8
 * bytes.
 */

const WHSEC = "whsec_";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** why a `whsec_` secret cannot be used as a key, or undefined when it can (any other secret can) */
export function secretProblem(secret: string): string | undefined {
  if (!secret.startsWith(WHSEC)) return undefined;
  const rest = secret.slice(WHSEC.length);
  if (rest.length === 0 || rest.length % 4 !== 0 || !BASE64.test(rest))
    return "a secret starting with whsec_ must continue in base64";
  return undefined;
}

function signingKey(secret: string): Buffer {
  return secret.startsWith(WHSEC) ? Buffer.from(secret.slice(WHSEC.length), "base64") : Buffer.from(secret);
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** the headers of one delivery attempt; no secret, no signature */
export function deliveryHeaders(
  secret: string | null,
  id: string,
  timestamp: number,
  body: string,
  contentType = "application/json",
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": contentType,
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
  };
  if (secret !== null) headers["webhook-signature"] = sign(secret, id, timestamp, body);
  return headers;
}

/**
 * What a receiver does (and the README shows): recompute the signature over the raw body and compare in
 * constant time with each `v1,` signature of the space-separated header, refusing stale timestamps.
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300))
    return false;
  const expected = Buffer.from(sign(secret, headers.id, timestamp, body));
  return headers.signature.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
