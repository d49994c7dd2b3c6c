import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { pgErrorOf } from "../db/db.js";
import { drainBody } from "./drain.js";
import { AppError, type ErrorCode, type ErrorShape } from "./errors.js";
import { html } from "./html.js";
import { describeValidationErrors, fieldProblems } from "./validation.js";

/** Fastify's own 4xx errors, by their code, mapped to ours; a plain 400 is a bad request in the route's shape */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "E_PAYLOAD_TOO_LARGE_413",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "E_UNSUPPORTED_MEDIA_TYPE_415",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "E_BAD_REQUEST_400",
};

/** the code a route's validation failures carry, by its body shape */
const VALIDATION_CODE: Record<ErrorShape, ErrorCode> = {
  standard: "E_BAD_REQUEST_400",
  member: "VALIDATION_ERROR",
  policyHolder: "E_BAD_REQUEST_400",
  oauth: "OAUTH_INVALID_REQUEST",
  batch: "VALIDATION_ERROR",
  fhir: "E_BAD_REQUEST_400",
  console: "E_BAD_REQUEST_400",
};

/** the `error` of RFC 6749 (token endpoint) and RFC 6750 (bearer) bodies, as the spec names them */
const OAUTH_ERRORS: Partial<Record<ErrorCode, string>> = {
  OAUTH_INVALID_REQUEST: "invalid_request",
  OAUTH_UNSUPPORTED_GRANT_TYPE: "unsupported_grant_type",
  OAUTH_INVALID_CLIENT: "invalid_client",
  OAUTH_UNAUTHORIZED: "unauthorized",
  OAUTH_INVALID_TOKEN: "invalid_token",
};

/** the batch service's codes in its bodies */
const BATCH_CODES: Partial<Record<ErrorCode, string>> = {
  BATCH_NOT_FOUND: "NOT_FOUND",
  SUBSCRIPTION_NOT_FOUND: "NOT_FOUND",
  BATCH_REFERENCE_TAKEN: "DUPLICATE_BATCH_REFERENCE",
  BATCH_RESULTS_NOT_READY: "RESULTS_NOT_READY",
  BATCH_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  E_PAYLOAD_TOO_LARGE_413: "PAYLOAD_TOO_LARGE",
  E_UNSUPPORTED_MEDIA_TYPE_415: "UNSUPPORTED_MEDIA_TYPE",
  E_RATE_LIMITED_429: "RATE_LIMITED",
  E_INTERNAL_500: "INTERNAL_ERROR",
  E_ROUTE_NOT_FOUND_404: "NOT_FOUND",
};

/** the OperationOutcome issue type of an answer, by its HTTP status */
const ISSUE_TYPE: Record<number, string> = {
  400: "invalid",
  401: "login",
  403: "forbidden",
  404: "not-found",
  409: "duplicate",
  413: "too-costly",
  415: "not-supported",
  422: "business-rule",
  429: "throttled",
  500: "exception",
  503: "transient",
};
/** a detail that names its element: `Bundle.entry[1].resource.item[0].productOrService: must hold …` */
const AT_PATH = /^(Bundle(?:\.[A-Za-z]+(?:\[\d+\])?)*): (.*)$/s;

/** a FHIR answer's error: an OperationOutcome with one issue per problem, each naming its element */
function operationOutcomeOf(error: AppError): Record<string, unknown> {
  const details = error.details.length > 0 ? error.details : [error.message];
  return {
    resourceType: "OperationOutcome",
    issue: details.map((detail) => {
      const match = AT_PATH.exec(detail);
      return {
        severity: error.status >= 500 ? "fatal" : "error",
        code: ISSUE_TYPE[error.status] ?? "processing",
        details: { coding: [{ code: error.code }], text: error.message },
        diagnostics: match?.[2] ?? detail,
        ...(match ? { expression: [match[1]] } : {}),
      };
    }),
  };
}

/** SQLSTATE class 22: a value out of range, too long, or not valid for its type */
const DATA_EXCEPTION = "22";
const UNSTORABLE_VALUE = "a value of the request is out of range or cannot be stored";

/** Normalizes anything thrown into an AppError; returns undefined for unexpected failures (5xx). */
export function toAppError(error: FastifyError | AppError, shape: ErrorShape): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error.validation && shape === "fhir") {
    // a FHIR message's problems are named by FHIRPath from its Bundle, as the message reader names them
    const details = fieldProblems(error.validation as never, "").map(
      (problem) => `${problem.field ? `Bundle.${problem.field}` : "Bundle"}: ${problem.reason}`,
    );
    return new AppError("E_BAD_REQUEST_400", details[0], details);
  }
  if (error.validation) {
    const details = describeValidationErrors(error.validation as never, error.validationContext);
    return new AppError(VALIDATION_CODE[shape], details[0] ?? undefined, details);
  }
  if (pgErrorOf(error)?.code.startsWith(DATA_EXCEPTION)) {
    // validation bounds what reaches SQL; a value it let through that the database still cannot hold is
    // the client's input all the same, not a failure of the service
    return new AppError("E_BAD_REQUEST_400", UNSTORABLE_VALUE, [UNSTORABLE_VALUE]);
  }
  const status = error.statusCode ?? 500;
  if (status >= 500 || status < 400) return undefined;
  const mapped =
    (error.code && FASTIFY_CODES[error.code]) || (status === 400 ? VALIDATION_CODE[shape] : undefined);
  // Fastify's messages for malformed input (bad JSON, empty body) are safe and useful to show
  if (mapped) return new AppError(mapped, error.message, [error.message]);
  return new AppError("E_BAD_REQUEST_400", error.message, [error.message]);
}

/** a page's failure, for the people who use the console */
const errorPage = (error: AppError) =>
  html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${error.status} · Mizan</title></head>
<body><h1>${error.status === 500 ? "Something went wrong" : error.message}</h1><p><a href="./">Back</a></p></body></html>`
    .text;

/** Renders an AppError in the spec's body shape for the route. */
export function renderError(error: AppError, shape: ErrorShape): Record<string, unknown> {
  const oauth = OAUTH_ERRORS[error.code];
  if (oauth !== undefined) return { error: oauth, error_description: error.message };
  if (shape === "oauth") return { error: "invalid_request", error_description: error.message };
  if (shape === "fhir") return operationOutcomeOf(error);
  if (shape === "batch")
    return {
      error: { code: BATCH_CODES[error.code] ?? error.code, message: error.message, details: error.details },
      timestamp: new Date().toISOString(),
    };
  if (shape === "policyHolder") {
    const message = error.details.length > 1 ? error.details.join("; ") : error.message;
    return { code: error.status, message };
  }
  if (error.code === "AUTH_REQUIRED") {
    // the spec: ErrorCode says an API key is required, message Unauthorized, details empty; members say UNAUTHORIZED
    return shape === "member"
      ? { ErrorCode: "UNAUTHORIZED", message: "Unauthorized", details: [] }
      : { ErrorCode: "API key is required", message: "Unauthorized", details: [] };
  }
  return { ErrorCode: error.code, message: error.message, details: error.details };
}

function shapeOf(request: FastifyRequest): ErrorShape {
  return request.routeOptions?.config?.errorShape ?? "standard";
}

/** The one error handler: every failure of every route leaves through here. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    // a body still arriving (too large, or refused before it was read) is drained first, so the answer is read
    if (request.raw.complete) answer(error, request, reply);
    else return drainBody(request.raw).then(() => answer(error, request, reply));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new AppError(
      "E_ROUTE_NOT_FOUND_404",
      `Route ${request.method} ${request.url.split("?")[0]} not found`,
    );
    return reply.status(404).send(renderError(error, "standard"));
  });
}

/** answers a failure in the body shape of its route */
function answer(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): void {
  const shape = shapeOf(request);
  if (shape === "fhir") reply.type("application/fhir+json");
  const appError = toAppError(error, shape);
  if (shape === "console") {
    if (appError === undefined) request.log.error({ err: error }, "unexpected failure");
    const shown = appError ?? new AppError("E_INTERNAL_500");
    reply.status(shown.status).type("text/html; charset=utf-8").send(errorPage(shown));
    return;
  }
  if (pgErrorOf(error) !== undefined && appError?.code === "E_BAD_REQUEST_400")
    request.log.warn({ err: error }, "input that validation let through was refused by the database");
  if (appError === undefined) request.log.error({ err: error }, "unexpected failure");
  const shown = appError ?? new AppError("E_INTERNAL_500");
  reply.status(shown.status).send(renderError(shown, shape));
}
