/**
 * The claims of uploads checked in a thread of their own (chunk-checker.ts starts it): parsing, checking
 * and building the columns is the upload's work, and here it runs beside the stream's reading and splitting.
 */
import { parentPort } from "node:worker_threads";
import { type ClaimChunk, checkChunk } from "./claim-chunk.js";

parentPort?.on("message", ({ id, chunk }: { id: number; chunk: ClaimChunk }) => {
  try {
    const checked = checkChunk(chunk);
    parentPort?.postMessage(
      { id, checked },
      checked.part === undefined ? [] : [checked.part.buffer as ArrayBuffer],
    );
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
