import { type LookupAddress, lookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { hostOf, isNonPublicAddress } from "./target-address.js";

/** how one attempt went: a 2xx is success; anything else says what happened */
export interface PostOutcome {
  statusCode: number | null;
  latencyMs: number;
  /** null on success */
  error: string | null;
}

// connections to a receiver are kept open between deliveries
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 32 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 32 }),
};
/** what an attempt keeps of a failed answer's body, for the delivery record */
const BODY_EXCERPT = 200;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses non-public addresses, so a name cannot re-resolve to one after registration */
function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  lookup(hostname, { ...options }, (error, address, family) => {
    if (error) return callback(error, "");
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address as string];
    const refused = addresses.find(isNonPublicAddress);
    if (refused !== undefined)
      return callback(
        Object.assign(new Error(`${hostname} resolves to non-public ${refused}`), { code: "EPRIVATE" }),
        "",
      );
    callback(null, address as string & LookupAddress[], family);
  });
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === "ETIMEDOUT_WEBHOOK") return error.message;
  return error.code ? `${error.message} (${error.code})` : error.message;
}

/**
 * POSTs one delivery: redirects are not followed (a 3xx is a failure), the whole exchange must finish
 * within `timeoutMs`, and with `denyPrivate` no connection is made to a non-public address.
 */
export function postDelivery(
  target: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; denyPrivate: boolean },
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, latencyMs: elapsed(), error });
    };
    const host = hostOf(target);
    if (options.denyPrivate && isIP(host) && isNonPublicAddress(host))
      return settle(null, `${host} is a non-public address (MIZAN_WEBHOOK_DENY_PRIVATE is on)`);
    const protocol = target.protocol === "https:" ? https : http;
    const request = protocol.request(target, {
      method: "POST",
      agent: AGENTS[target.protocol as keyof typeof AGENTS],
      headers: { ...headers, "content-length": Buffer.byteLength(body), "user-agent": "Mizan-Webhooks/1" },
      ...(options.denyPrivate ? { lookup: publicOnlyLookup as never } : {}),
    });
    timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error(`no complete answer within ${options.timeoutMs} ms`);
      error.code = "ETIMEDOUT_WEBHOOK";
      request.destroy(error);
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => settle(null, describe(error)));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      let excerpt = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (excerpt.length < BODY_EXCERPT) excerpt += chunk.slice(0, BODY_EXCERPT - excerpt.length);
      });
      // cut off mid-answer (the timeout, a reset): the request's error, or this, settles it
      response.on("error", (error: NodeJS.ErrnoException) => settle(status, describe(error)));
      response.on("close", () => settle(status, "the answer was cut off"));
      response.on("end", () => {
        if (status >= 200 && status < 300) return settle(status, null);
        const said = excerpt.trim() === "" ? "" : `: ${excerpt.trim()}`;
        if (status >= 300 && status < 400)
          return settle(status, `redirect to ${response.headers.location ?? "(no location)"} not followed`);
        settle(status, `HTTP ${status}${said}`);
      });
    });
    request.end(body);
  });
}
