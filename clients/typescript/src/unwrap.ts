import { MizanApiError } from "./errors.js";

/** the X-Request-ID each answer's request carried, for answers that do not echo it (a load balancer's) */
const sentRequestIds = new WeakMap<Response, string>();

export function rememberRequestId(response: Response, requestId: string): Response {
  sentRequestIds.set(response, requestId);
  return response;
}

/** the request id of an answer: the one the service echoed, else the one sent */
export function requestIdOf(response: Response): string | undefined {
  return response.headers.get("x-request-id") ?? sentRequestIds.get(response);
}

/** an openapi-fetch result of any call */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful openapi-fetch call, or a MizanApiError (status, parsed body, request id):
 * `const created = await unwrap(mizan.tenant.POST("/v4.0/health/approval-request/create", { body }))`.
 */
export async function unwrap<Result extends FetchResult>(
  call: Result | Promise<Result>,
): Promise<Exclude<Result["data"], undefined>> {
  const { data, error, response } = await call;
  if (!response.ok) throw new MizanApiError(response.status, error, requestIdOf(response));
  return data as Exclude<Result["data"], undefined>;
}
