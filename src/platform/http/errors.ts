import { pgErrorOf, UNIQUE_VIOLATION } from "../db/db.js";

/**
 * Every coded error the API can answer, with its HTTP status and default message (the spec's code table
 * plus the platform's own). Domain code throws `AppError(code)`; the one error handler renders it in the
 * body shape of the route that failed.
 */
export const ERROR_REGISTRY = {
  // platform
  E_BAD_REQUEST_400: { status: 400, message: "Validation failed" },
  AUTH_REQUIRED: { status: 401, message: "Unauthorized" },
  E_UNAUTHORIZED_401: { status: 401, message: "A valid bearer token is required" },
  E_FORBIDDEN_403: { status: 403, message: "Forbidden" },
  E_ROUTE_NOT_FOUND_404: { status: 404, message: "Route not found" },
  E_PAYLOAD_TOO_LARGE_413: { status: 413, message: "Request body is too large" },
  E_UNSUPPORTED_MEDIA_TYPE_415: { status: 415, message: "Unsupported Content-Type" },
  E_RATE_LIMITED_429: { status: 429, message: "Too many requests" },
  E_INTERNAL_500: { status: 500, message: "Internal server error" },
  E_UNAVAILABLE_503: { status: 503, message: "Service unavailable" },
  // members
  VALIDATION_ERROR: { status: 400, message: "Member validation failed" },
  CONFLICT: { status: 409, message: "Member already exists" },
  NOT_FOUND: { status: 404, message: "Member not found" },
  // networks
  E_CONFLICT_409: { status: 409, message: "Network name already exists" },
  E_NOT_FOUND_404: { status: 404, message: "Network not found" },
  // medical providers and cities
  E_EMP_01: { status: 404, message: "Medical provider not found" },
  E_EMP_02: { status: 409, message: "CCHI number already in use" },
  E_CITY_01: { status: 404, message: "City not found" },
  // policy holders, policies, patients
  E_EPH_01: { status: 404, message: "Policy holder not found" },
  E_PH_CONFLICT: { status: 409, message: "Policy holder already exists" },
  E_EPA_01: { status: 404, message: "Patient not found" },
  E_EPA_014: { status: 404, message: "Policy not found" },
  E_EPA_015: { status: 404, message: "Network not found" },
  E_EBA_01: { status: 404, message: "Benefit not found" },
  E_EPA_02: { status: 404, message: "Diagnosis not found" },
  E_EPA_069: { status: 409, message: "Already exists" },
  E_BULK_JOB_404: { status: 404, message: "Bulk import job not found" },
  // prior authorization, supporting info, communications
  E_EPA_064: { status: 404, message: "Prior authorization not found" },
  E_CLAIM_001: { status: 404, message: "Claim not found" },
  E_EPA_09: { status: 404, message: "Prior authorization not found" },
  E_EPA_10: { status: 404, message: "User not found" },
  E_EPA_11: { status: 404, message: "Item not found" },
  E_EPA_12: { status: 404, message: "Benefit not found for item" },
  E_EPA_13: { status: 404, message: "Sub-benefit not found for item" },
  E_EPA_14: { status: 404, message: "Rejection reason not found" },
  E_EPA_15: { status: 422, message: "Status transition not allowed" },
  E_EPA_16: { status: 422, message: "Referral CCHI code required when status is REFERRED" },
  E_EPA_17: { status: 409, message: "Already cancelled" },
  // price lists
  E_EPL_01: { status: 404, message: "Price list not found" },
  E_EPI_01: { status: 404, message: "Price item not found" },
  // webhooks (the spec gives their statuses only)
  E_WEBHOOK_NOT_FOUND_404: { status: 404, message: "Webhook not found" },
  E_WEBHOOK_INACTIVE_409: { status: 409, message: "Webhook is not active" },
  // reviewer users (docs/operator-contract.md section 6)
  E_USER_NOT_FOUND_404: { status: 404, message: "User not found" },
  // OAuth and bearer tokens (rendered {error, error_description} wherever they arise)
  OAUTH_INVALID_REQUEST: { status: 400, message: "The token request is invalid" },
  OAUTH_UNSUPPORTED_GRANT_TYPE: { status: 400, message: "Unsupported grant type" },
  OAUTH_INVALID_CLIENT: { status: 401, message: "Client authentication failed" },
  OAUTH_UNAUTHORIZED: { status: 401, message: "A valid bearer token is required" },
  OAUTH_INVALID_TOKEN: { status: 401, message: "The access token has expired" },
  // batch claims service
  BATCH_NOT_FOUND: { status: 404, message: "Batch not found" },
  BATCH_REFERENCE_TAKEN: { status: 409, message: "batch_reference_id is already used" },
  BATCH_RESULTS_NOT_READY: { status: 409, message: "The batch has no results yet" },
  BATCH_TOO_LARGE: { status: 413, message: "The batch is too large" },
  SUBSCRIPTION_NOT_FOUND: { status: 404, message: "Subscription not found" },
  // NPHIES FHIR interface
  E_FHIR_DUPLICATE_409: { status: 409, message: "Already processed with other content" },
  // operator API
  E_TENANT_EXISTS_409: { status: 409, message: "Tenant already exists" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: string[] = [],
  ) {
    super(message ?? ERROR_REGISTRY[code].message);
    this.name = "AppError";
    this.status = ERROR_REGISTRY[code].status;
  }
}

/** the details of one refusal name this many problems, then how many more there are */
export const MAX_DETAILS = 20;

/** the first `max` problems, then a line saying how many more there are */
export function shownProblems(problems: readonly string[], max = MAX_DETAILS): string[] {
  return problems.length > max
    ? [...problems.slice(0, max), `and ${problems.length - max} more`]
    : [...problems];
}

/** a refusal whose details name the problems (capped); its message is the first, unless given */
export function refusal(
  code: ErrorCode,
  problems: readonly string[],
  message?: string,
  max?: number,
): AppError {
  return new AppError(code, message ?? problems[0], shownProblems(problems, max));
}

/**
 * The spec's body shapes. `standard` is `{ErrorCode, message, details}`; `member` is the same shape
 * with the member codes (VALIDATION_ERROR, UNAUTHORIZED); `policyHolder` is `{code, message}`; `oauth`
 * is `{error, error_description}`; `batch` is `{error: {code, message, details}, timestamp}`.
 */
export type ErrorShape = "standard" | "member" | "policyHolder" | "oauth" | "batch" | "fhir" | "console";

declare module "fastify" {
  interface FastifyContextConfig {
    errorShape?: ErrorShape;
  }
}

/**
 * Runs a write and turns a unique-index violation into the area's 409: the database, not a prior read,
 * decides which of two concurrent duplicates wins. A conflict may be described asynchronously (by
 * reading what the write collided with), once the failed write is over, so a request that succeeds
 * never pays for that read.
 */
export async function withConflicts<T>(
  write: () => Promise<T>,
  byConstraint: Record<string, () => AppError | Promise<AppError>>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const pgError = pgErrorOf(error);
    const conflict =
      pgError?.code === UNIQUE_VIOLATION && pgError.constraint ? byConstraint[pgError.constraint] : undefined;
    throw conflict ? await conflict() : error;
  }
}
