import type { FastifyRequest } from "fastify";
import { AppError } from "../../platform/http/errors.js";

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * Refuses a browser's form posted from another site (login CSRF: signing the victim in as the attacker).
 * Browsers send Origin with every POST (Referer where an old one does not); the host it names must be the
 * one the request was sent to. Without either it is no browser, which a cross-site form cannot be.
 */
export function requireSameOrigin(request: FastifyRequest): void {
  const claimed = request.headers.origin ?? request.headers.referer;
  if (claimed === undefined) return;
  if (!sameHost(claimed, request.host))
    throw new AppError("E_FORBIDDEN_403", "This form may only be sent from the console's own pages");
}

function sameHost(claimed: string, host: string): boolean {
  let origin: URL;
  let target: URL;
  try {
    origin = new URL(claimed);
    // the scheme a proxy terminated is unknown here: the origin's own says which port is the default
    target = new URL(`${origin.protocol}//${host}`);
  } catch {
    return false; // "null" (a sandboxed or opaque origin) or no URL at all
  }
  const port = (url: URL) => url.port || DEFAULT_PORTS[url.protocol] || "";
  return origin.hostname === target.hostname && port(origin) === port(target);
}
