import type { LookupAddress, LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { type AllowedRanges, isPermittedAddress } from "./address-ranges.js";
import { hostOf, type Resolve, systemResolve } from "./target-address.js";

/** how one attempt went: a 2xx is success; anything else says what happened, in a few words */
export interface PostOutcome {
  statusCode: number | null;
  latencyMs: number;
  /** null on success; never any part of what the target answered (it may not be the tenant's) */
  error: string | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** the non-public ranges the operator allows targets in (MIZAN_WEBHOOK_ALLOW_PRIVATE) */
  allowPrivate: AllowedRanges;
  /** name resolution (dns.lookup by default; tests give their own) */
  resolve?: Resolve;
}

// connections to a receiver are kept open between deliveries
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 32 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 32 }),
};

/** what the delivery record says of a target refused for its address */
export const REFUSED_ADDRESS = "refused: the target is not at a public address";

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

const refusedAddress = () => Object.assign(new Error(REFUSED_ADDRESS), { code: "EPRIVATE" });

/**
 * The lookup the connection uses: every address a name resolves to must be permitted, and the
 * connection goes to exactly those, so a name cannot re-resolve elsewhere between check and connect.
 */
function checkedLookup(allowed: AllowedRanges, resolve: Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const entries = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => !options.family || options.family === entry.family);
        const first = entries[0];
        if (first === undefined)
          return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "");
        if (!addresses.every((address) => isPermittedAddress(address, allowed)))
          return callback(refusedAddress(), "");
        if (options.all) return callback(null, entries);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/** a connection error, in a few words that carry nothing of the target's */
const ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EAI_FAIL: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPRIVATE: REFUSED_ADDRESS,
};

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === "ETIMEDOUT_WEBHOOK") return error.message;
  const known = error.code === undefined ? undefined : ERRORS[error.code];
  if (known !== undefined) return known;
  if (error.code?.startsWith("ERR_TLS") || /CERT|SSL|TLS/.test(error.code ?? ""))
    return `TLS failed (${error.code})`;
  return error.code ? `connection failed (${error.code})` : "connection failed";
}

/** the socket's far end is checked once connected, whatever resolved it */
function checkPeer(request: http.ClientRequest, allowed: AllowedRanges) {
  request.on("socket", (socket: Socket) => {
    if (!socket.connecting) return;
    socket.once("connect", () => {
      const peer = socket.remoteAddress;
      if (peer === undefined || !isPermittedAddress(peer, allowed)) request.destroy(refusedAddress());
    });
  });
}

/**
 * POSTs one delivery: redirects are not followed (a 3xx is a failure), the whole exchange must finish
 * within `timeoutMs`, and no connection is made to an address that is neither public nor allowed.
 * The answer's body is read and dropped: the record keeps its status code only.
 */
export function postDelivery(
  target: URL,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
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
    if (isIP(host) && !isPermittedAddress(host, options.allowPrivate)) return settle(null, REFUSED_ADDRESS);
    const protocol = target.protocol === "https:" ? https : http;
    const request = protocol.request(target, {
      method: "POST",
      agent: AGENTS[target.protocol as keyof typeof AGENTS],
      headers: { ...headers, "content-length": Buffer.byteLength(body), "user-agent": "Mizan-Webhooks/1" },
      lookup: checkedLookup(options.allowPrivate, options.resolve ?? systemResolve) as never,
    });
    checkPeer(request, options.allowPrivate);
    timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error(`no complete answer within ${options.timeoutMs} ms`);
      error.code = "ETIMEDOUT_WEBHOOK";
      request.destroy(error);
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => settle(null, describe(error)));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      // cut off mid-answer (the timeout, a reset): the request's error, or this, settles it
      response.on("error", (error: NodeJS.ErrnoException) => settle(status, describe(error)));
      response.on("close", () => settle(status, "the answer was cut off"));
      response.on("end", () => {
        if (status >= 200 && status < 300) return settle(status, null);
        if (status >= 300 && status < 400)
          return settle(status, `HTTP ${status}: redirects are not followed`);
        settle(status, `HTTP ${status}`);
      });
    });
    request.end(body);
  });
}
