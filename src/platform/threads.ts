import { Worker } from "node:worker_threads";

/**
 * A thread running the module `name` beside `besideUrl` (its caller's import.meta.url): the built .js, or
 * from the sources through tsx (tests, benchmarks).
 */
export function startThreadBeside(besideUrl: string, name: string, workerData: unknown): Worker {
  if (!besideUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, besideUrl), { workerData });
  // a thread does not inherit tsx's loader: it registers it before it loads the module
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const module = JSON.stringify(new URL(`./${name}.ts`, besideUrl).href);
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${module}); })`, {
    eval: true,
    execArgv: [],
    workerData,
  });
}
