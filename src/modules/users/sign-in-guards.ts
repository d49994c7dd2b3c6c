import { createRateLimiter, type RateLimiter } from "../../platform/http/rate-limit.js";
import { createSlots, type Slots } from "./slots.js";

/**
 * What bounds sign-in work before any password is hashed, in this process's memory (behind a load
 * balancer each node counts on its own, as the API's rate limit does).
 */
export const SIGN_IN_LIMITS = {
  /** sign-in attempts a source may make a minute, whatever the tenant or username */
  perSourcePerMinute: 30,
  /** passwords checked a minute for one username, from every source together (slows distributed guessing) */
  perUserPerMinute: 20,
  /** passwords checked at once: each scrypt holds 128 MiB and one of libuv's 4 threads (gunzip, files) */
  hashing: 2,
  /** attempts waiting for a hashing slot; past them, 429 at once */
  waiting: 4,
} as const;

export interface SignInGuards {
  perSource: RateLimiter;
  perUser: RateLimiter;
  /** sources with an attempt being checked: one at a time each, so one source never holds every slot */
  checking: Set<string>;
  hashing: Slots;
}

export function createSignInGuards(limits: typeof SIGN_IN_LIMITS = SIGN_IN_LIMITS): SignInGuards {
  return {
    perSource: createRateLimiter(limits.perSourcePerMinute),
    perUser: createRateLimiter(limits.perUserPerMinute),
    checking: new Set(),
    hashing: createSlots(limits.hashing, limits.waiting),
  };
}

/**
 * The source an attempt is counted under: the client's address, an IPv4-mapped IPv6 address as IPv4, and
 * IPv6 by its /64 (one host is commonly given a whole /64).
 */
export function sourceOf(ip: string): string {
  const address = ip.split("%")[0] ?? ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.toLowerCase().split("::");
  const first = head === "" ? [] : head.split(":");
  const last = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined
      ? first
      : [...first, ...Array(Math.max(0, 8 - first.length - last.length)).fill("0"), ...last];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
