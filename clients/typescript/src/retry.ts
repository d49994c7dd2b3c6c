import { setTimeout as sleep } from "node:timers/promises";
import { MizanNetworkError } from "./errors.js";

/** How many times a request is tried in all, and the longest wait between two tries. */
export interface RetryOptions {
  /** tries in all, the first included (default 4); 1 turns retries off */
  attempts?: number;
  /** the longest wait between tries (default 30 s); a longer Retry-After ends the retries */
  maxDelayMs?: number;
  /** the first backoff step, doubled at each try (default 250 ms) */
  baseDelayMs?: number;
}

export type RetryRules = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryRules = { attempts: 4, maxDelayMs: 30_000, baseDelayMs: 250 };

/** what the service or a load balancer answers when the request was not taken: safe to send again */
const RETRIED_STATUSES = new Set([429, 503]);

/** methods a lost answer may be sent again for: doing them twice does what doing them once does */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export const isIdempotent = (method: string) => IDEMPOTENT.has(method.toUpperCase());

export interface SendOptions {
  /** a network error is retried only for these */
  idempotent: boolean;
  /** false when the body can be read only once (a caller's stream): no try after the first */
  replayable: boolean;
}

/** Sends a request built by `make` (once per try, since a streamed body can be read only once). */
export type Send = (make: () => Request, options: SendOptions) => Promise<Response>;

/** the wait a Retry-After header asks for (delta seconds or an HTTP date), in ms; undefined when absent or unreadable */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** exponential backoff with "equal jitter": half the step fixed, half random, so clients failing together spread out */
export function backoffMs(attempt: number, rules: RetryRules): number {
  const step = Math.min(rules.maxDelayMs, rules.baseDelayMs * 2 ** (attempt - 1));
  return step / 2 + (Math.random() * step) / 2;
}

/** A Send over `fetchImpl` that retries 429 and 503 (and network errors of idempotent requests). */
export function retrying(fetchImpl: typeof fetch, options: RetryOptions = {}): Send {
  const rules: RetryRules = { ...DEFAULT_RETRY, ...options };
  return async (make, { idempotent, replayable }) => {
    for (let attempt = 1; ; attempt++) {
      const request = make();
      const last = !replayable || attempt >= rules.attempts;
      let response: Response;
      try {
        response = await fetchImpl(request);
      } catch (error) {
        if (last || !idempotent || request.signal.aborted)
          throw new MizanNetworkError(request.headers.get("x-request-id") ?? undefined, { cause: error });
        await sleep(backoffMs(attempt, rules), undefined, { signal: request.signal });
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoffMs(attempt, rules);
      // retrying before the time the service named would only be refused again: hand its answer back
      if (wait > rules.maxDelayMs) return response;
      // the unread answer would hold its connection until collected
      await response.body?.cancel();
      await sleep(wait, undefined, { signal: request.signal });
    }
  };
}
