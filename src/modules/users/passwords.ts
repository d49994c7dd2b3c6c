import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { createSlots } from "./slots.js";

/**
 * Reviewer passwords, hashed with scrypt at OWASP's recommendation (N = 2^17, r = 8, p = 1: 128 MiB a
 * hash, memory-hard), a random 16-byte salt each. The stored text `scrypt$N$r$p$salt$key` names its
 * parameters, so older hashes (N = 2^15) still verify, and signing in rehashes them at today's cost.
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const PASSWORD_COST: Readonly<ScryptCost> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 12;

let cost: Readonly<ScryptCost> = PASSWORD_COST;

/**
 * Test-only: tests that hash many passwords lower the cost of their own process; nothing in src calls it,
 * so the service always hashes at PASSWORD_COST.
 */
export function setPasswordCostForTests(testCost: ScryptCost): void {
  cost = Object.freeze({ ...testCost });
}

/**
 * Every scrypt of the process, two at a time (the rest wait their turn): at most 256 MiB, and two of
 * libuv's four threads left to gunzip and file I/O. Sign-in's own admission (sign-in-guards) refuses first.
 */
const SCRYPT_AT_ONCE = 2;
const scryptSlots = createSlots(SCRYPT_AT_ONCE, Number.POSITIVE_INFINITY);

async function derive(password: string, salt: Buffer, options: ScryptCost): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node refuses more than maxmem, 32 MiB unless raised
  const maxmem = 256 * options.N * options.r;
  const release = await (scryptSlots.acquire() ?? Promise.reject(new Error("no scrypt slot")));
  try {
    return await new Promise((resolve, reject) =>
      scrypt(password, salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
        error ? reject(error) : resolve(key),
      ),
    );
  } finally {
    release();
  }
}

const format = (parameters: ScryptCost, salt: Buffer, key: Buffer) =>
  `scrypt$${parameters.N}$${parameters.r}$${parameters.p}$${salt.toString("base64")}$${key.toString("base64")}`;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return format(cost, salt, await derive(password, salt, cost));
}

/** a hash read from the database is trusted, but not to ask for gigabytes of memory */
const saneCost = ({ N, r, p }: ScryptCost) =>
  Number.isInteger(N) &&
  N >= 2 &&
  N <= 2 ** 20 &&
  (N & (N - 1)) === 0 &&
  Number.isInteger(r) &&
  r >= 1 &&
  r <= 32 &&
  Number.isInteger(p) &&
  p >= 1 &&
  p <= 4;

/** a stored hash's parts; undefined when it is no scrypt hash, or its cost is out of any sane range */
function parse(stored: string): { parameters: ScryptCost; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== "scrypt" || salt === undefined || key === undefined || !saneCost(parameters))
    return undefined;
  return { parameters, salt: Buffer.from(salt, "base64"), key: Buffer.from(key, "base64") };
}

/** whether a hash was made at another cost than today's: the next successful sign-in rehashes it */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    parsed === undefined ||
    parsed.parameters.N !== cost.N ||
    parsed.parameters.r !== cost.r ||
    parsed.parameters.p !== cost.p ||
    parsed.key.length !== KEY_LENGTH
  );
}

/** checked against when there is no user or no password, so every answer costs one hash at today's cost */
const noPassword = () => format(cost, Buffer.alloc(16), Buffer.alloc(KEY_LENGTH));

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = parse(stored ?? noPassword());
  if (parsed === undefined) return false;
  const derived = await derive(password, parsed.salt, parsed.parameters);
  return stored !== null && derived.length === parsed.key.length && timingSafeEqual(derived, parsed.key);
}
