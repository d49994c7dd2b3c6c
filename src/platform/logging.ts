import pino from "pino";

/** pino's options for where logs go: readable lines on a terminal, JSON (one object a line) otherwise */
export function prettyOnTerminal(): { transport?: { target: string; options: Record<string, unknown> } } {
  return process.stdout.isTTY
    ? {
        transport: {
          target: "pino-pretty",
          options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" },
        },
      }
    : {};
}

/**
 * Fields of a database error that can carry the values of the statement that failed: PGlite's statement
 * text (a prepared statement runs as EXECUTE with its values written out as literals) and parameters, and
 * PostgreSQL's detail ("Failing row contains (…)", "Key (national_id)=(…) already exists"). Secrets and
 * members' personal data would reach the log with them.
 */
const STATEMENT_VALUE_FIELDS = [
  "query",
  "params",
  "queryOptions",
  "detail",
  "where",
  "internalQuery",
] as const;

/** pino's error serializer without the statement's values; the code, constraint and message stay */
function errorWithoutValues(error: Error): pino.SerializedError {
  const serialized = { ...pino.stdSerializers.err(error) };
  for (const field of STATEMENT_VALUE_FIELDS) delete serialized[field];
  return serialized;
}

/** the serializers every logger of the service uses */
export const logSerializers = { err: errorWithoutValues };
