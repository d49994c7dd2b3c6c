/**
 * Fields of a database error that can carry the values of the statement that failed: PGlite's
 * statement text (a prepared statement runs as EXECUTE with its values written out as literals) and
 * parameters, and PostgreSQL's detail ("Failing row contains (…)" lists every column of the row).
 */
const VALUE_FIELDS = ["query", "params", "queryOptions", "detail", "where", "internalQuery"] as const;

/**
 * Runs a write that stores a webhook's or a subscription's secret. If it fails, the error loses the
 * fields that could carry the secret before anything logs it; its code and constraint stay.
 */
export async function storingSecret<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (typeof error === "object" && error !== null)
      for (const field of VALUE_FIELDS) delete (error as Record<string, unknown>)[field];
    throw error;
  }
}
