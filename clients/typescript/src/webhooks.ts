import { createHmac, timingSafeEqual } from "node:crypto";

/** the headers of a delivery: fetch's Headers, or Node's IncomingHttpHeaders */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type WebhookVerification =
  | { valid: true; id: string; timestamp: number }
  | { valid: false; reason: "missing headers" | "stale timestamp" | "bad signature" };

export interface VerifyOptions {
  /** how far the timestamp may be from now, either way (default 300 s): older deliveries are replays */
  toleranceSeconds?: number;
  /** Unix seconds (for tests) */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(" ") : value;
}

/** a `whsec_` secret's key is its base64 rest (Standard Webhooks); any other secret's, its UTF-8 bytes */
function signingKey(secret: string): Buffer {
  return secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret);
}

/**
 * Checks a delivery as Standard Webhooks says: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`
 * against each space-separated `v1,` signature, compared in constant time, and refuses stale timestamps.
 * Give the raw body, before any JSON parsing: re-serialised JSON differs by a byte and fails.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyOptions = {},
): WebhookVerification {
  const id = header(headers, "webhook-id");
  const timestampText = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (id === undefined || timestampText === undefined || signatures === undefined)
    return { valid: false, reason: "missing headers" };
  const timestamp = Number(timestampText);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (!/^\d+$/.test(timestampText) || Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300))
    return { valid: false, reason: "stale timestamp" };
  const mac = createHmac("sha256", signingKey(secret))
    .update(`${id}.${timestampText}.`)
    .update(rawBody)
    .digest("base64");
  const expected = Buffer.from(`v1,${mac}`);
  const matches = signatures.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, id, timestamp } : { valid: false, reason: "bad signature" };
}
