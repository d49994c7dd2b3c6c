import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * A thread running the module `name` beside `besideUrl` (its caller's import.meta.url): the built .js, or,
 * from the sources (tests, benchmarks), the module bundled once a process. `moved`: buffers of `workerData`
 * the thread takes rather than a copy of.
 */
export function startThreadBeside(
  besideUrl: string,
  name: string,
  workerData: unknown,
  moved: ArrayBuffer[] = [],
): Worker {
  const options = { workerData, transferList: moved };
  if (!besideUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, besideUrl), options);
  return new Worker(bundledSource(new URL(`./${name}.ts`, besideUrl)), options);
}

/** where the bundled threads are kept: inside the checkout, so their packages resolve from its node_modules */
const BUNDLES = new URL("../../node_modules/.cache/mizan-threads/", import.meta.url);
const bundles = new Map<string, URL>();

/**
 * A thread's module and what it imports as one file (as the build bundles its threads).
 * Each thread through tsx's loader took 1.3-1.5 s and two seconds of CPU to start (its own loader thread
 * transforming and resolving every module), which the test suite paid at every upload's check thread and
 * every database it opened. Named by its content, so processes share a file and never read a half-written one.
 */
function bundledSource(source: URL): URL {
  const known = bundles.get(source.href);
  if (known !== undefined) return known;
  // tsx, which runs the sources, brings esbuild with it
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const built = esbuild.buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    // PGlite finds its WebAssembly and data files beside its own module
    external: ["@electric-sql/pglite"],
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    write: false,
    logLevel: "warning",
  });
  const code = built.outputFiles[0]?.contents;
  if (code === undefined) throw new Error(`bundling ${source.href} gave no file`);
  const name = `${basename(fileURLToPath(source), ".ts")}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`;
  const bundle = new URL(name, BUNDLES);
  if (!existsSync(bundle)) {
    mkdirSync(BUNDLES, { recursive: true });
    const partial = new URL(`${name}.${process.pid}`, BUNDLES);
    writeFileSync(partial, code);
    renameSync(partial, bundle);
  }
  bundles.set(source.href, bundle);
  return bundle;
}
