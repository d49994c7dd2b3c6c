import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";

/** what a tenant is told of a failure: a code, and a reference that finds the full error in the log */
export interface PublicFailure {
  code: string;
  reference: string;
  /** "<what> failed; reference <reference>": no error text, path or stack */
  message: string;
}

/**
 * Logs the whole error under a new reference and answers what a tenant may see of it. An error's text
 * names files, tables and hosts, so it stays in the log: operators find it by the reference.
 */
export function publicFailure(
  log: Pick<FastifyBaseLogger, "error">,
  error: unknown,
  code: string,
  what: string,
  fields: Record<string, unknown> = {},
): PublicFailure {
  const reference = randomUUID();
  log.error({ ...fields, err: error, reference, code }, `${what} failed (reference ${reference})`);
  return { code, reference, message: `${what} failed; reference ${reference}` };
}
