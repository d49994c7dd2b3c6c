/** Every error the library raises; the CLI and callers can catch this one class. */
export class MizanError extends Error {
  override name = "MizanError";
}

/** The service answered, but not with success: its status, its parsed body and the request's id. */
export class MizanApiError extends MizanError {
  override name = "MizanApiError";
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | undefined,
    message = `the service answered ${status}${describe(body)}`,
  ) {
    super(message);
  }
}

/** The token endpoint refused the client credentials (or answered without a token). */
export class MizanAuthError extends MizanApiError {
  override name = "MizanAuthError";
}

/** No answer came (connection refused, reset, DNS), after the retries an idempotent request gets. */
export class MizanNetworkError extends MizanError {
  override name = "MizanNetworkError";
  constructor(
    readonly requestId: string | undefined,
    options: { cause: unknown },
  ) {
    super(`no answer from the service: ${messageOf(options.cause)}`, options);
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici hides the socket's reason in `cause` ("fetch failed" alone says nothing)
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}

/** the human part of the service's error shapes: `{message}`, `{error: {message}}`, `{error_description}` */
export function errorMessageOf(body: unknown): string | undefined {
  if (typeof body === "string") return body.slice(0, 200) || undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const nested = record.error as Record<string, unknown> | undefined;
  for (const candidate of [
    record.error_description,
    typeof nested === "object" && nested !== null ? nested.message : undefined,
    record.message,
    record.ErrorCode,
  ])
    if (typeof candidate === "string") return candidate;
  return undefined;
}

function describe(body: unknown): string {
  const message = errorMessageOf(body);
  return message === undefined ? "" : `: ${message}`;
}
