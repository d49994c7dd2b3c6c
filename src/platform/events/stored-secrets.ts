import { STATEMENT_VALUE_FIELDS } from "../logging.js";

/**
 * Runs a write that stores a webhook's or a subscription's secret. If it fails, the error loses the
 * fields that could carry the secret before anything logs it; its code and constraint stay.
 */
export async function storingSecret<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (typeof error === "object" && error !== null)
      for (const field of STATEMENT_VALUE_FIELDS) delete (error as Record<string, unknown>)[field];
    throw error;
  }
}
