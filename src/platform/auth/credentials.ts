import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Access-keys and client secrets are random 256-bit values, so a plain SHA-256 is enough to store them:
 * nothing short of the secret itself finds a preimage, and lookups stay one indexed equality.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function generateApiKey(): string {
  return `mzk_${randomBytes(32).toString("base64url")}`;
}

export function generateClientId(): string {
  return `mzc_${randomBytes(12).toString("hex")}`;
}

export function generateClientSecret(): string {
  return `mzs_${randomBytes(32).toString("base64url")}`;
}

/** compares two secrets without leaking, through timing, how much of them matched */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
