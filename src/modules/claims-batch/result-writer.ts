/**
 * The analysis's result pages, written beside the rankings: a large batch's in a thread of its own
 * (results-thread.ts), a small one's here, where a thread's start would cost more than it saves. Both cut
 * and encode the pages with the same code (result-pages.ts).
 */
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { ResultSource } from "../../engine/fwa/result-bytes.js";
import type { Db } from "../../platform/db/db.js";
import { startThreadBeside } from "../../platform/threads.js";
import { PagePipeline } from "./page-pipeline.js";
import { batchRepo, RESULT_PAGE_CLAIMS } from "./repo.js";
import { PAGE_GZIP, type ResultPage, writePages } from "./result-pages.js";
import type { ResultsThreadMessage, ResultsThreadRequest } from "./results-thread.js";

const gzipAsync = promisify(gzip);

type StoredPage = Omit<Parameters<typeof batchRepo.insertResultPage>[1], "data">;

/** one stored page: its JSON compressed and inserted, behind the writes `writes` already holds */
export function queuePage(
  writes: PagePipeline,
  db: Db,
  page: StoredPage,
  json: string | Uint8Array,
): Promise<void> {
  return writes.add(async () =>
    batchRepo.insertResultPage(db, { ...page, data: await gzipAsync(json, PAGE_GZIP) }),
  );
}

/**
 * pages the thread may have sent and not seen stored: a fixed bound on what waits (some 25 MB), wide enough
 * that the thread goes on through the provider evidence, when this thread stores nothing (with 64 it stopped
 * there, and the analysis of 1,000,000 items gained little)
 */
const THREAD_WINDOW = 256;

export interface ResultPagesOptions {
  batchId: string;
  attempt: number;
  /** in a thread of their own, or on this one */
  inThread: boolean;
  /** progress is told after every `step` claims */
  step: number;
  onProgress(claims: number): Promise<void>;
  /** asked at each step: a stopped worker leaves the batch to the next attempt */
  stopped(): boolean;
}

/** pages being written: `done` resolves to the claims written once every page is stored; `stop` abandons them */
export interface ResultPagesWriting {
  done: Promise<number>;
  stop(): void;
}

/** what an analysis whose worker stopped fails with (its job is retried from scratch) */
export const WORKER_STOPPED = "the worker stopped; the batch is analysed again";

/** every claim's result of `source`, stored by page (RESULT_PAGE_CLAIMS claims a page) */
export function writeResultPages(
  db: Db,
  source: ResultSource,
  options: ResultPagesOptions,
): ResultPagesWriting {
  const writing = options.inThread ? inThread(db, source, options) : here(db, source, options);
  // awaited by the analysis, or abandoned when it failed first
  writing.done.catch(() => {});
  return writing;
}

const storedPage = (options: ResultPagesOptions, page: Omit<ResultPage, "json">): StoredPage => ({
  batchId: options.batchId,
  attempt: options.attempt,
  ...page,
});

function here(db: Db, source: ResultSource, options: ResultPagesOptions): ResultPagesWriting {
  const writes = new PagePipeline();
  let stopped = false;
  const done = (async () => {
    const claims = await writePages(source, RESULT_PAGE_CLAIMS, options.step, {
      onPage: ({ json, ...page }) => queuePage(writes, db, storedPage(options, page), Buffer.from(json)),
      onProgress: async (written) => {
        if (stopped || options.stopped()) throw new Error(WORKER_STOPPED);
        await options.onProgress(written);
      },
    });
    await writes.drain();
    return claims;
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * The buffers of what only the results read, moved to the thread rather than copied: at ten million items
 * the ids and the items' decisions are some 300 MB, which copied stayed on this thread too until collected.
 * What the rankings read as well (each claim's first item, provider and status) is copied.
 */
function movedToThread(source: ResultSource): ArrayBuffer[] {
  const moved = [
    source.claimIds.bytes,
    source.claimIds.offsets,
    source.erpItemIds.bytes,
    source.erpItemIds.offsets,
    source.itemErpId,
    source.itemStatus,
    source.itemScore,
    source.findingResults.bytes,
    source.findingResults.offsets,
    source.claimsWithFindings,
  ].map((array) => array.buffer);
  return [...new Set(moved)].filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}

function inThread(db: Db, source: ResultSource, options: ResultPagesOptions): ResultPagesWriting {
  const thread = startThreadBeside(import.meta.url, "results-thread", undefined);
  const done = new Promise<number>((resolve, reject) => {
    const pending = new Set<Promise<unknown>>();
    const track = (work: Promise<unknown>) => {
      pending.add(work);
      work.then(
        () => pending.delete(work),
        (error: unknown) => reject(error),
      );
    };
    let reporting: Promise<void> = Promise.resolve();
    thread.on("message", (message: ResultsThreadMessage) => {
      if ("page" in message) {
        const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
        track(
          batchRepo
            .insertResultPage(db, { ...storedPage(options, message.page), data })
            .then(() => thread.postMessage({ stored: true } satisfies ResultsThreadRequest)),
        );
      } else if ("progress" in message) {
        if (options.stopped()) reject(new Error(WORKER_STOPPED));
        const claims = message.progress;
        reporting = reporting.then(() => options.onProgress(claims));
        track(reporting);
      } else if ("done" in message) {
        const claims = message.done;
        Promise.all([...pending]).then(() => resolve(claims), reject);
      } else reject(new Error(`the results thread failed: ${message.error}`));
    });
    thread.on("error", reject);
    thread.on("exit", (code) => reject(new Error(`the results thread stopped (exit code ${code})`)));
  });
  // the thread ends with its pages, or with the analysis
  done.then(
    () => thread.terminate(),
    () => thread.terminate(),
  );
  thread.postMessage(
    {
      start: { source, pageClaims: RESULT_PAGE_CLAIMS, step: options.step, window: THREAD_WINDOW },
    } satisfies ResultsThreadRequest,
    movedToThread(source),
  );
  return { done, stop: () => void thread.terminate() };
}
