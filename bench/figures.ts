/** one autocannon scenario as the bench reports it */
import autocannon, { type Options, type Result } from "autocannon";
import { percentile } from "./ratios.js";

export interface Figure {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  total: number;
  failures: number;
  budget: string;
  /** CPU per request of the server and the database beside it (bench/cpu.ts), where it was measured */
  cpuMsPerRequest?: number;
}

/** an autocannon run with the latency of each 2xx response, sorted */
export interface Cannonade {
  result: Result;
  latenciesMs: number[];
}

/** autocannon keeping each latency itself: its histogram counts whole milliseconds, and a floor is a tenth of one */
export async function cannon(options: Options): Promise<Cannonade> {
  const latenciesMs: number[] = [];
  const result = await autocannon(options).on("response", (_client, statusCode, _bytes, ms) => {
    if (Math.floor(Number(statusCode) / 100) === 2) latenciesMs.push(ms);
  });
  latenciesMs.sort((a, b) => a - b);
  return { result, latenciesMs };
}

/** POSTs to `${base}${route}` from `connections` clients for `seconds`, each request with a new `body()` */
export function cannonPosts(
  base: string,
  route: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  body: () => string,
): Promise<Cannonade> {
  const path = new URL(`${base}${route}`).pathname;
  return cannon({
    url: base,
    connections,
    duration: seconds,
    headers,
    requests: [{ method: "POST", path, setupRequest: (request) => ({ ...request, body: body() }) }],
  });
}

const hundredths = (ms: number) => Math.round(ms * 100) / 100;

export function figure(
  scenario: string,
  run: Cannonade,
  budget: string,
  okStatus: string,
  cpuSeconds?: number,
): Figure {
  const { result, latenciesMs } = run;
  const ok = result.statusCodeStats[okStatus]?.count ?? 0;
  const cpu =
    cpuSeconds === undefined || result.requests.total === 0
      ? {}
      : {
          cpuMsPerRequest: hundredths((cpuSeconds * 1000) / result.requests.total),
        };
  return {
    scenario,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: hundredths(percentile(latenciesMs, 50)),
    p99Ms: hundredths(percentile(latenciesMs, 99)),
    maxMs: hundredths(latenciesMs.at(-1) ?? Number.NaN),
    total: result.requests.total,
    failures: result.errors + result.timeouts + (result.requests.total - ok),
    budget,
    ...cpu,
  };
}
