import Type, { type TSchema } from "typebox";
import { PATTERN_TEXT } from "./validation.js";

/** Schema pieces shared by the areas: one definition of each rule of the spec's field tables. */

const IDENTIFIER = "^[A-Za-z0-9][A-Za-z0-9_.-]*$";
const NOT_BLANK = "\\S";
PATTERN_TEXT[IDENTIFIER] =
  "must contain only letters, digits, '-', '_' or '.', starting with a letter or digit";
PATTERN_TEXT[NOT_BLANK] = "must not be blank";

/** free text of min..max characters that is not only white space */
export const Text = (minLength: number, maxLength: number, extra: { description?: string } = {}) =>
  Type.String({ minLength, maxLength, ...(minLength > 0 ? { pattern: NOT_BLANK } : {}), ...extra });

/**
 * The spec's "alphanumeric" identifiers (member_id, national_id, ph_erp_id). Hyphens, underscores and dots
 * are accepted as well because real ERP keys and the UUIDs the spec itself mentions contain them.
 */
export const Identifier = (maxLength: number, extra: { description?: string } = {}) =>
  Type.String({ minLength: 1, maxLength, pattern: IDENTIFIER, ...extra });

export const DateTime = (extra: { description?: string } = {}) =>
  Type.String({ format: "mizan-datetime", examples: ["2025-01-31T00:00:00.000Z"], ...extra });
/** any ISO 8601 date-time with a time zone, where the spec says "full ISO 8601 date-time" */
export const AnyDateTime = (extra: { description?: string } = {}) =>
  Type.String({ format: "mizan-any-datetime", examples: ["2025-01-31T10:00:00Z"], ...extra });
export const DateOnly = (extra: { description?: string } = {}) =>
  Type.String({ format: "mizan-date", examples: ["2025-01-31"], ...extra });
/** the largest amount NUMERIC(14,2) holds */
export const MAX_MONEY = 999_999_999_999.99;
const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;

/**
 * The amount's shortest decimal text has at most two decimals. Below 1e13 that is the amount being the
 * double nearest a whole number of hundredths (its hundredfold is then off a whole number by under 0.25),
 * tested without building the text: a batch checks millions of amounts.
 */
export function hasAtMostTwoDecimals(value: number): boolean {
  if (value >= 0 && value < 1e13) return Math.round(value * 100) / 100 === value;
  return TWO_DECIMALS.test(String(value));
}

/**
 * An amount of money: a JSON number >= 0 with at most two decimals. Checked on its decimal text, since
 * `multipleOf: 0.01` misjudges large amounts in floating point.
 */
export const Money = (extra: { description?: string } = {}) =>
  Type.Refine(
    Type.Number({ minimum: 0, maximum: MAX_MONEY, description: "amount, at most 2 decimals", ...extra }),
    hasAtMostTwoDecimals,
    () => "must have at most 2 decimals",
  );

/** the spec's "ISO date": YYYY-MM-DD, also accepted as a DATETIME (its UTC date is kept) */
export const IsoDate = (extra: { description?: string } = {}) =>
  Type.String({ format: "mizan-iso-date", examples: ["2025-01-31"], ...extra });

export const Email = () => Type.String({ format: "email", maxLength: 255 });

export const Enum = <const T extends readonly string[]>(values: T, extra: { description?: string } = {}) =>
  Type.Enum(values as unknown as T[number][], extra);

export const GENDERS = ["MALE", "FEMALE"] as const;
export const MARITAL_STATUSES = [
  "SINGLE",
  "MARRIED",
  "ENGAGED",
  "UNKNOWN",
  "WIDOWED",
  "DIVORCED",
  "SEPARATED",
] as const;
export const RELATIONS = [
  "SELF",
  "FATHER",
  "MOTHER",
  "SON",
  "DAUGHTER",
  "SISTER",
  "HUSBAND",
  "WIFE",
  "WIFE_WITHOUT_MATERNITY",
  "MOTHER_MB",
  "SENIOR_EMPLOYEE",
  "FEMALE_EMPLOYEE_WITH_MAT",
  "CHILD",
  "SPOUSE",
  "EMPLOYEE",
  "OTHER",
] as const;
export const PROVIDER_TYPES = [
  "CLINIC",
  "POLYCLINIC",
  "DENTAL_CLINIC",
  "HOSPITAL",
  "PHARMACY",
  "PHYSIOTHERAPY",
  "LABS",
  "OPTICAL_CENTER",
  "AMBULANCE_SERVICES",
  "ONE_DAY_SURGERY_CENTER",
] as const;
export const INSURANCE_TYPES = ["NORMAL", "VIP", "VVIP"] as const;

/** `{code, message}` that create and update responses carry, mirroring the HTTP status */
export const CodeMessage = {
  code: Type.Integer({ description: "mirrors the HTTP status" }),
  message: Type.String(),
};

export const StandardErrorBody = Type.Object(
  { ErrorCode: Type.String(), message: Type.String(), details: Type.Array(Type.String()) },
  { $id: "StandardError", description: "error body of the administrative API" },
);
export const PolicyHolderErrorBody = Type.Object(
  { code: Type.Integer(), message: Type.String() },
  { $id: "PolicyHolderError", description: "error body of the policy holder endpoints" },
);

/** the batch service's error body (`{claims_base_url}`, the spec's batch shape) */
export const BatchErrorBody = Type.Object(
  {
    error: Type.Object({ code: Type.String(), message: Type.String(), details: Type.Array(Type.Unknown()) }),
    batch_reference_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    timestamp: Type.String(),
  },
  { $id: "BatchError", description: "error body of the batch claims service" },
);
/** a bearer token's failure (RFC 6750) */
export const BearerErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { $id: "BearerError", description: "error body of a missing, invalid or expired bearer token" },
);

/** the error responses of a route of the batch claims service: 401 in the bearer shape, the rest in the batch one */
export const bearerServiceErrors = (statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((status) => [status, status === 401 ? BearerErrorBody : BatchErrorBody]));

/** the error responses of a route, for OpenAPI (the error handler writes them, not the serializer) */
export function errorResponses(
  statuses: number[],
  body: TSchema = StandardErrorBody,
): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, body]));
}

/** `limit` and `skip` are listed as required by the spec, yet default to 10 and 0 (docs/operator-contract.md section 6) */
export const Paging = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  skip: Type.Integer({ minimum: 0, default: 0 }),
};
