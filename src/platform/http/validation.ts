import type { FastifySchemaCompiler } from "fastify";
import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import Format from "typebox/format";
import { Value } from "typebox/value";

const DATETIME = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
// deliberately plain: one @, no spaces, a dot in the domain; RFC 5322 in full accepts what no mailbox uses
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A day of the proleptic Gregorian calendar from the year 100 (Date.UTC reads years 0-99 as 1900-1999, which
 * this check has always refused); counted, not through a Date: a batch checks millions of dates.
 */
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** the number of the digits at `from`..`to` - 1 of `value`, or -1 when one is not an ASCII digit */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i += 1) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** the calendar date `YYYY-MM-DD` that `value` begins with is a real one (the rest is not looked at) */
function beginsWithCalendarDate(value: string): boolean {
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  return isCalendarDate(digitsAt(value, 0, 4), digitsAt(value, 5, 7), digitsAt(value, 8, 10));
}

/** DATETIME of the spec: `YYYY-MM-DDTHH:mm:ss.sssZ` naming a real calendar date */
export function isDateTime(value: string): boolean {
  return value.length === 24 && DATETIME.test(value) && beginsWithCalendarDate(value);
}

/** DATE of the spec: `YYYY-MM-DD` naming a real calendar date */
export function isDate(value: string): boolean {
  return value.length === 10 && beginsWithCalendarDate(value);
}

/** the spec's "ISO date" fields (policies, patient links): a DATE, or a DATETIME whose UTC date counts */
export function isIsoDate(value: string): boolean {
  return isDate(value) || isDateTime(value);
}

/** the calendar date (UTC) of a DATE or DATETIME text */
export function dateOf(value: string): string {
  return value.slice(0, 10);
}

const FORMATS: Record<string, { check: (value: string) => boolean; says: string }> = {
  "mizan-datetime": { check: isDateTime, says: "must be a date-time of the form YYYY-MM-DDTHH:mm:ss.sssZ" },
  "mizan-date": { check: isDate, says: "must be a date of the form YYYY-MM-DD" },
  "mizan-iso-date": {
    check: isIsoDate,
    says: "must be a date of the form YYYY-MM-DD (or a date-time YYYY-MM-DDTHH:mm:ss.sssZ)",
  },
  "mizan-any-datetime": {
    check: (value) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value) &&
      isDate(value.slice(0, 10)) &&
      !Number.isNaN(Date.parse(value)),
    says: "must be an ISO 8601 date-time with a time zone (2025-01-31T10:00:00Z)",
  },
  email: {
    check: (value) => EMAIL.test(value) && value.length <= 255,
    says: "must be a valid e-mail address",
  },
};
for (const [name, format] of Object.entries(FORMATS)) Format.Set(name, format.check);

/**
 * Bodies are checked as sent (a JSON number is not a string); query strings and path parameters are
 * converted first, since everything in a URL is text. Defaults of query parameters are applied. Unknown
 * fields are ignored, as clients of the vendor API send extra fields, and removed from what passes.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  boundIntegers(schema);
  const check = Compile(schema);
  const clean = compileCleaner(schema);
  const convert = httpPart !== "body";
  return (input: unknown) => {
    const value = convert ? convertUrlValues(schema, input) : input;
    if (!check.Check(value)) return { error: check.Errors(value) as never };
    // fields the schema does not name are dropped, so no handler ever sees (or writes) them
    const cleaned = clean(value);
    const unstorable = unstorableTextErrors(cleaned);
    return unstorable.length === 0 ? { value: cleaned } : { error: unstorable as never };
  };
};

/** the range of PostgreSQL's integer, which every integer the API takes is stored in */
export const INTEGER_RANGE = { minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;

/**
 * Gives every integer of a request schema the database's range where it sets none, so an id of
 * 99999999999999999999999 is refused by name instead of overflowing in SQL. The schema itself changes,
 * so OpenAPI documents the same bounds.
 */
function boundIntegers(schema: TSchema): void {
  const pending: Record<string, unknown>[] = [schema as Record<string, unknown>];
  for (let shape = pending.pop(); shape !== undefined; shape = pending.pop()) {
    if (shape.type === "integer") {
      shape.minimum ??= INTEGER_RANGE.minimum;
      shape.maximum ??= INTEGER_RANGE.maximum;
    }
    const children = [
      ...Object.values(shape.properties ?? {}),
      ...Object.values(shape.patternProperties ?? {}),
      shape.items,
      shape.additionalProperties,
      shape.not,
      ...[shape.anyOf, shape.allOf, shape.oneOf].flatMap((list) => (Array.isArray(list) ? list : [])),
    ];
    for (const child of children)
      if (typeof child === "object" && child !== null) pending.push(child as Record<string, unknown>);
  }
}

/** NUL (which PostgreSQL cannot store in text), and UTF-16 halves without their pair (in `u` mode a pair is one character) */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is looked for
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udfff]/u;

/**
 * Strings a request may not carry anywhere, in any field, path parameter or query value, as schema
 * errors that name the field. Walked without recursion, so no nesting depth can overflow the stack.
 */
export function unstorableTextErrors(value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  const pending: [unknown, string][] = [[value, ""]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, path] = next;
    if (typeof node === "string") {
      if (UNSTORABLE_TEXT.test(node))
        errors.push({
          keyword: "unstorable",
          instancePath: path,
          params: {},
          message: "must not contain NUL characters or unpaired surrogates",
        });
    } else if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) pending.push([item, `${path}/${index}`]);
    } else if (typeof node === "object" && node !== null) {
      for (const [key, item] of Object.entries(node))
        pending.push([item, `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
    }
  }
  return errors;
}

type Cleaner = (value: unknown) => unknown;
const keep: Cleaner = (value) => value;

interface SchemaShape {
  type?: string;
  properties?: Record<string, TSchema>;
  additionalProperties?: unknown;
  items?: TSchema;
  anyOf?: TSchema[];
}

/**
 * What Value.Clean does to a value that passed its check (fields the schema does not name are dropped),
 * compiled once per schema: Value.Clean walks the schema on every call, 270 µs for a prior-authorization
 * body against a few µs here. Objects and arrays are walked; a union that holds objects falls back to
 * Value.Clean; anything else is kept as it is.
 */
export function compileCleaner(schema: TSchema): Cleaner {
  const shape = schema as SchemaShape;
  if (shape.type === "object" && shape.properties !== undefined) {
    if (shape.additionalProperties === true) return keep;
    const fields = Object.entries(shape.properties).map(
      ([name, property]) => [name, compileCleaner(property)] as const,
    );
    return (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
      const source = value as Record<string, unknown>;
      const cleaned: Record<string, unknown> = {};
      for (const [name, clean] of fields) if (name in source) cleaned[name] = clean(source[name]);
      return cleaned;
    };
  }
  if (shape.type === "array" && shape.items !== undefined) {
    const clean = compileCleaner(shape.items);
    if (clean === keep) return keep;
    return (value) => (Array.isArray(value) ? value.map(clean) : value);
  }
  if (shape.anyOf !== undefined) {
    const branches = shape.anyOf.map(compileCleaner);
    if (branches.every((branch) => branch === keep)) return keep;
    return (value) => Value.Clean(schema, value);
  }
  return keep;
}

const INTEGER_TEXT = /^-?\d+$/;

/**
 * TypeBox's conversion truncates "1.5" to 1 for an integer; an id of 1.5 must be refused, not read as 1.
 * So integer fields keep their text unless it is a whole number, and then fail the check by name.
 */
function convertUrlValues(schema: TSchema, input: unknown): unknown {
  if (typeof input !== "object" || input === null) return Value.Default(schema, Value.Convert(schema, input));
  const original = { ...(input as Record<string, unknown>) }; // Convert may change its argument in place
  const converted = Value.Default(schema, Value.Convert(schema, input)) as Record<string, unknown>;
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    const raw = original[name];
    if (property.type === "integer" && typeof raw === "string" && !INTEGER_TEXT.test(raw))
      converted[name] = raw;
  }
  return converted;
}

export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `/items/2/claimed_quantity` -> `items[2].claimed_quantity` */
export function fieldPath(instancePath: string): string {
  return instancePath
    .split("/")
    .filter((part) => part !== "")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

/** a problem with one field: its path (`items[2].claimed_quantity`) and what is wrong with it */
export interface FieldProblem {
  field: string;
  reason: string;
}

/** Turns schema errors into field problems, one per problem; `root` names the value itself. */
export function fieldProblems(errors: readonly SchemaError[], root: string): FieldProblem[] {
  const problems = new Map<string, FieldProblem>();
  const add = (field: string, reason: string) => problems.set(`${field} ${reason}`, { field, reason });
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === "anyOf").map((e) => e.instancePath));
  for (const error of errors) {
    const field = fieldPath(error.instancePath);
    const name = field || root;
    if (error.keyword === "required") {
      const missing = (error.params.requiredProperties ?? [error.params.missingProperty]) as string[];
      for (const property of missing) add(`${field ? `${field}.` : ""}${property}`, "is required");
    } else if (error.keyword === "enum") {
      add(name, `must be one of: ${(error.params.allowedValues as unknown[]).join(", ")}`);
    } else if (error.keyword === "format") {
      const format = FORMATS[error.params.format as string];
      add(name, format?.says ?? `must match format ${String(error.params.format)}`);
    } else if (error.keyword === "pattern") {
      add(name, PATTERN_TEXT[error.params.pattern as string] ?? "has an invalid format");
    } else if (error.keyword === "const" && anyOfPaths.has(error.instancePath)) {
      // reported once through its anyOf
    } else if (error.keyword === "anyOf") {
      const allowed = errors
        .filter((e) => e.keyword === "const" && e.instancePath === error.instancePath)
        .map((e) => e.params.allowedValue);
      add(name, allowed.length > 0 ? `must be one of: ${allowed.join(", ")}` : "is invalid");
    } else {
      add(name, error.message ?? "is invalid");
    }
  }
  return [...problems.values()];
}

/** Turns schema errors into messages that name the field, one message per problem. */
export function describeValidationErrors(errors: readonly SchemaError[], part: string | undefined): string[] {
  const root = part === "body" || part === undefined ? "body" : part;
  return fieldProblems(errors, root).map((problem) => `${problem.field} ${problem.reason}`);
}

/** Human text for the patterns our schemas use (see `schemas/common.ts`). */
export const PATTERN_TEXT: Record<string, string> = {};
