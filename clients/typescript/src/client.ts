import { randomUUID } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";
import { memoryTokenStore, type TokenStore, tokenSource, withBearer } from "./auth.js";
import { type BatchOperations, batchOperations } from "./batches.js";
import { MizanError } from "./errors.js";
import type { BatchPaths, TenantPaths } from "./paths.js";
import { isIdempotent, type RetryOptions, retrying, type Send } from "./retry.js";
import { rememberRequestId } from "./unwrap.js";

export interface MizanClientOptions {
  /** where the service answers, e.g. `https://mizan.example.com` (no /v1, no tenant) */
  baseUrl: string;
  /** the tenant's name: the tenant API lives under `{baseUrl}/{tenant}` */
  tenant?: string;
  /** the tenant API's `access-key` */
  apiKey?: string;
  /** the OAuth client of the batch service */
  clientId?: string;
  clientSecret?: string;
  /** a fetch of your own (a proxy agent, a test double); globalThis.fetch by default */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** where the batch service's token is kept (in memory by default) */
  tokenStore?: TokenStore;
}

export interface MizanClient extends BatchOperations {
  /** the tenant API, typed: `tenant.POST("/v4.0/health/approval-request/create", { body })` */
  tenant: Client<TenantPaths>;
  /** the batch claims service, typed: `batch.GET("/v1/claims/batch/{batch_id}", { params: { path: { batch_id } } })` */
  batch: Client<BatchPaths>;
  /** the batch service's current bearer token (asked for when none is kept or it expires within a minute) */
  token(): Promise<string>;
}

/** openapi-fetch's fetch over a Send: one X-Request-ID per call (the caller's, else a new UUID), the same on every try */
function fetchOver(send: Send) {
  return async (request: Request): Promise<Response> => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    const response = await send(
      () => {
        const attempt = request.clone();
        attempt.headers.set("x-request-id", requestId);
        return attempt;
      },
      { idempotent: isIdempotent(request.method), replayable: true },
    );
    return rememberRequestId(response, requestId);
  };
}

/** the tenant API refuses every call of a client made without a tenant, before anything is sent */
const noTenant: Send = async () => {
  throw new MizanError("the tenant API needs the `tenant` option");
};

export function createMizanClient(options: MizanClientOptions): MizanClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  // the global fetch is looked up at each call, so one replaced after the client was made is used
  const send = retrying(options.fetch ?? ((request) => fetch(request)), options.retry);
  const tokens = tokenSource({
    tokenUrl: `${baseUrl}/v1/auth/token`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    send,
    store: options.tokenStore ?? memoryTokenStore(),
  });
  const bearer = withBearer(send, tokens);
  const tenant = createClient<TenantPaths>({
    baseUrl: `${baseUrl}/${encodeURIComponent(options.tenant ?? "")}`,
    fetch: fetchOver(options.tenant === undefined ? noTenant : send),
    headers: options.apiKey === undefined ? {} : { "access-key": options.apiKey },
  });
  const batch = createClient<BatchPaths>({ baseUrl, fetch: fetchOver(bearer) });
  return { tenant, batch, token: () => tokens.current(), ...batchOperations(baseUrl, batch, bearer) };
}
