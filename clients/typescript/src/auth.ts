import { randomUUID } from "node:crypto";
import { MizanAuthError, MizanError } from "./errors.js";
import type { Send } from "./retry.js";

/** A bearer token and when it expires (ms since the epoch), as a TokenStore keeps it. */
export interface StoredToken {
  access_token: string;
  expires_at: number;
}

/** Where the token is kept between calls, or between runs (the CLI keeps it in a file). */
export interface TokenStore {
  load(): StoredToken | undefined | Promise<StoredToken | undefined>;
  save(token: StoredToken): void | Promise<void>;
}

/** the default store: the token lives as long as the client */
export function memoryTokenStore(): TokenStore {
  let kept: StoredToken | undefined;
  return {
    load: () => kept,
    save: (token) => {
      kept = token;
    },
  };
}

/** a token with less than this left is renewed before use, so it cannot expire on the way */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;

export interface TokenSource {
  /** the kept token while it has more than a minute left, else a new one */
  current(): Promise<string>;
  /** a new token, unless another call already replaced the one the service refused */
  renew(rejected: string): Promise<string>;
}

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  send: Send;
  store: TokenStore;
}

/** OAuth 2.0 client credentials (RFC 6749 section 4.4) against POST {base}/v1/auth/token. */
export function tokenSource({
  tokenUrl,
  clientId,
  clientSecret,
  send,
  store,
}: ClientCredentials): TokenSource {
  let loaded: Promise<StoredToken | undefined> | undefined;
  let kept: StoredToken | undefined;
  // concurrent calls that all find the token stale share one token request
  let pending: Promise<string> | undefined;

  const usable = (token: StoredToken | undefined): token is StoredToken =>
    token !== undefined && token.expires_at - Date.now() > RENEW_BEFORE_EXPIRY_MS;

  async function request(): Promise<string> {
    if (clientId === undefined || clientSecret === undefined)
      throw new MizanError("the batch service needs clientId and clientSecret");
    const requestId = randomUUID();
    const startedAt = Date.now();
    const response = await send(
      () =>
        new Request(tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-request-id": requestId },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: clientId,
            client_secret: clientSecret,
          }),
        }),
      // asking twice for a token does no harm
      { idempotent: true, replayable: true },
    );
    const body = (await response.json().catch(() => undefined)) as
      | { access_token?: string; expires_in?: number; error_description?: string }
      | undefined;
    if (!response.ok || typeof body?.access_token !== "string")
      throw new MizanAuthError(
        response.status,
        body,
        response.headers.get("x-request-id") ?? requestId,
        `the token service refused the client: ${body?.error_description ?? response.status}`,
      );
    // counted from before the request, so the kept expiry is never later than the service's
    kept = { access_token: body.access_token, expires_at: startedAt + (body.expires_in ?? 3600) * 1000 };
    await store.save(kept);
    return kept.access_token;
  }

  function fresh(): Promise<string> {
    pending ??= request().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    async current() {
      if (kept === undefined) {
        loaded ??= Promise.resolve(store.load()).catch(() => undefined);
        kept ??= await loaded;
      }
      return usable(kept) ? kept.access_token : fresh();
    },
    async renew(rejected) {
      if (usable(kept) && kept.access_token !== rejected) return kept.access_token;
      return fresh();
    },
  };
}

/** A Send that adds the bearer token, and on a 401 renews it once and sends the request once more. */
export function withBearer(send: Send, tokens: TokenSource): Send {
  const authorized = (make: () => Request, token: string) => () => {
    const request = make();
    request.headers.set("authorization", `Bearer ${token}`);
    return request;
  };
  return async (make, options) => {
    const token = await tokens.current();
    const first = await send(authorized(make, token), options);
    if (first.status !== 401 || !options.replayable) return first;
    await first.body?.cancel();
    return send(authorized(make, await tokens.renew(token)), options);
  };
}
