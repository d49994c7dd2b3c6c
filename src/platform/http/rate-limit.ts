/**
 * Fixed one-minute windows per credential, in this process's memory. Behind a load balancer each API node
 * counts on its own, so the effective ceiling is the limit times the number of nodes; a shared store would
 * make it exact at the price of a round trip per request.
 */
import type { FastifyReply } from "fastify";
import { AppError } from "./errors.js";

export interface RateLimiter {
  /** counts one request; returns 0 when allowed, else the seconds until the window resets */
  take(key: string): number;
}

export function createRateLimiter(perMinute: number, now: () => number = Date.now): RateLimiter {
  if (perMinute === 0) return { take: () => 0 };
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  return {
    take(key) {
      const time = now();
      if (time - lastSweep > 60_000) {
        for (const [k, w] of windows) if (time - w.start >= 60_000) windows.delete(k);
        lastSweep = time;
      }
      let window = windows.get(key);
      if (window === undefined || time - window.start >= 60_000) {
        window = { start: time, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count <= perMinute) return 0;
      return Math.max(1, Math.ceil((window.start + 60_000 - time) / 1000));
    },
  };
}

/** counts a request of `key`; past the limit, answers 429 with Retry-After */
export function enforceRateLimit(limiter: RateLimiter, key: string, reply: FastifyReply): void {
  const retryAfter = limiter.take(key);
  if (retryAfter > 0) {
    reply.header("retry-after", String(retryAfter));
    throw new AppError("E_RATE_LIMITED_429");
  }
}
