import type { Worker } from "node:worker_threads";
import { startThreadBeside } from "../../../platform/threads.js";
import { type CheckedChunk, type ClaimChunk, checkChunk } from "./claim-chunk.js";

type Answer = { id: number; checked: CheckedChunk; error?: undefined } | { id: number; error: string };
interface Waiter {
  resolve: (checked: CheckedChunk) => void;
  reject: (error: Error) => void;
}

/** a running check thread, the chunks it owes an answer, and its end once idle */
interface CheckThread {
  thread: Worker;
  waiting: Map<number, Waiter>;
  idle?: NodeJS.Timeout;
}

/**
 * Bytes alone in their memory (a full chunk's, gathered by `Buffer.concat`) are moved to the thread rather than
 * copied (the main thread spent a tenth of an upload copying them); bytes sharing Node's small-buffer pool
 * are copied, as moving them would take their neighbours' memory too.
 */
function movableMemoryOf(bytes: Uint8Array): ArrayBuffer | undefined {
  const { buffer } = bytes;
  const alone = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
  return alone && buffer instanceof ArrayBuffer ? buffer : undefined;
}

/** a thread idle this long ends: its heap (tens of megabytes) is not kept beside the analysis that follows */
const IDLE_MS = 1_000;

/**
 * A thread that checks upload chunks (check-thread.ts), started on first use and shared by every upload; a
 * thread that fails answers its waiting chunks with the failure, and the next chunk starts another.
 */
class ChunkChecker {
  private current: CheckThread | undefined;
  private next = 0;

  check(chunk: ClaimChunk): Promise<CheckedChunk> {
    const current = this.current ?? this.start();
    const { thread, waiting } = current;
    clearTimeout(current.idle);
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      // the thread holds the process open only while it owes answers
      if (waiting.size === 1) thread.ref();
      const movable = movableMemoryOf(chunk.bytes);
      thread.postMessage({ id, chunk }, movable === undefined ? [] : [movable]);
    });
  }

  private start(): CheckThread {
    const started: CheckThread = {
      thread: startThreadBeside(import.meta.url, "check-thread", undefined),
      waiting: new Map(),
    };
    const { thread, waiting } = started;
    this.current = started;
    thread.unref();
    thread.on("message", (answer: Answer) => {
      const waiter = waiting.get(answer.id);
      waiting.delete(answer.id);
      if (waiting.size === 0) {
        thread.unref();
        started.idle = setTimeout(() => this.end(started), IDLE_MS).unref();
      }
      if (answer.error === undefined) waiter?.resolve(answer.checked);
      else waiter?.reject(new Error(`an upload chunk's check failed: ${answer.error}`));
    });
    const fail = (error: Error) => {
      if (this.current === started) this.current = undefined;
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    };
    thread.on("error", fail);
    thread.on("exit", (code) => fail(new Error(`the upload check thread stopped (exit code ${code})`)));
    return started;
  }

  /** an idle thread ended; the next chunk starts another */
  private end(idle: CheckThread): void {
    if (this.current !== idle || idle.waiting.size > 0) return;
    this.current = undefined;
    void idle.thread.terminate();
  }
}

/** the process's check threads, started as uploads first need them */
const threads: ChunkChecker[] = [];
let turn = 0;

/**
 * How an upload checks its full chunks: in turn by up to `count` threads shared by the process's uploads, or
 * here, on the upload's own thread, when `count` is 0 (MIZAN_UPLOAD_CHECK_THREADS).
 */
export function chunkChecker(count: number): (chunk: ClaimChunk) => Promise<CheckedChunk> {
  if (count === 0) return async (chunk) => checkChunk(chunk);
  return (chunk) => {
    const index = turn++ % count;
    threads[index] ??= new ChunkChecker();
    return (threads[index] as ChunkChecker).check(chunk);
  };
}
