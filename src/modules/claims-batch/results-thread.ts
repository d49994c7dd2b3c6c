/**
 * A batch's result pages encoded and compressed in a thread of their own (result-writer.ts starts it), while
 * the analysis's thread ranks the batch's providers and members: one after the other, the two were the last
 * third of the analysis, with a core idle.
 */
import { parentPort } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import type { ResultSource } from "../../engine/fwa/result-bytes.js";
import { PAGE_GZIP, type ResultPage, writePages } from "./result-pages.js";

export interface ResultsThreadStart {
  source: ResultSource;
  pageClaims: number;
  /** progress is told after every `step` claims */
  step: number;
  /** pages sent and not yet stored: past this many the thread waits */
  window: number;
}

/** what the thread tells: a compressed page to store, progress, the end, or its failure */
export type ResultsThreadMessage =
  | { page: Omit<ResultPage, "json">; data: Uint8Array }
  | { progress: number }
  | { done: number }
  | { error: string };

/** what it is told: to start, and each page stored */
export type ResultsThreadRequest = { start: ResultsThreadStart } | { stored: true };

if (parentPort === null) throw new Error("results-thread runs as a worker thread");
const port = parentPort;
const tell = (message: ResultsThreadMessage, moved: ArrayBuffer[] = []) => port.postMessage(message, moved);

let unstored = 0;
let window = Number.POSITIVE_INFINITY;
let resume: (() => void) | undefined;

port.on("message", (request: ResultsThreadRequest) => {
  if ("stored" in request) {
    unstored--;
    if (unstored < window) resume?.();
    return;
  }
  window = request.start.window;
  run(request.start).catch((error: unknown) =>
    tell({ error: error instanceof Error ? error.message : String(error) }),
  );
});

async function run({ source, pageClaims, step }: ResultsThreadStart): Promise<void> {
  const done = await writePages(source, pageClaims, step, {
    onPage: ({ json, ...page }) => {
      const data = gzipSync(json, PAGE_GZIP);
      // the compressed page moves to the application's thread unless it is a slice of Node's shared pool
      const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
      tell({ page, data }, own ? [data.buffer as ArrayBuffer] : []);
      unstored++;
      if (unstored < window) return undefined;
      return new Promise<void>((resolve) => {
        resume = resolve;
      });
    },
    onProgress: (claims) => {
      tell({ progress: claims });
      return undefined;
    },
  });
  tell({ done });
}
