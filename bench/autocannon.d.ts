// The few parts of autocannon's API the benchmarks use (it ships no types).
declare module "autocannon" {
  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: RequestSpec) => RequestSpec;
  }
  export interface Options {
    url: string;
    connections: number;
    duration: number;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    duration: number;
  }
  /** the run: awaited for its result; its "response" events carry each response's exact latency */
  export interface Instance extends PromiseLike<Result> {
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): Instance;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
