/** one autocannon scenario as the bench reports it */
import type { Result } from "autocannon";

export interface Figure {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  total: number;
  failures: number;
  budget: string;
}

export function figure(scenario: string, result: Result, budget: string, okStatus: string): Figure {
  const ok = result.statusCodeStats[okStatus]?.count ?? 0;
  return {
    scenario,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    total: result.requests.total,
    failures: result.errors + result.timeouts + (result.requests.total - ok),
    budget,
  };
}
