import { request } from "node:http";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";

const FILL = Buffer.alloc(64 * 1024, "x");

/**
 * A batch made on the fly: `head`, then `fillBytes` of "x" (inside a string the head opens), then
 * `tail`. Never held whole, by the test or anyone: the filler is one 64 KiB buffer pushed again and again.
 */
export function generatedBatch(head: string, fillBytes: number, tail: string): Readable {
  let left = fillBytes;
  let stage: "head" | "fill" | "tail" | "done" = "head";
  return new Readable({
    read() {
      if (stage === "head") {
        stage = "fill";
        this.push(head);
      } else if (stage === "fill") {
        const size = Math.min(left, FILL.length);
        left -= size;
        if (left === 0) stage = "tail";
        this.push(size === FILL.length ? FILL : FILL.subarray(0, size));
      } else if (stage === "tail") {
        stage = "done";
        this.push(tail);
      } else this.push(null);
    },
  });
}

export interface StreamedAnswer {
  status: number;
  body: string;
}

/**
 * Streams `body` (gzip-compressed on the way when asked) as an upload over a real socket, chunked; stops
 * sending as soon as the answer arrives, and resolves with it.
 */
export function streamUpload(
  url: string,
  token: string,
  body: Readable,
  gzip = false,
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    const source = gzip ? body.pipe(createGzip({ level: 1 })) : body;
    const req = request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": gzip ? "application/gzip" : "application/json",
      },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      source.unpipe(req);
      body.destroy();
      source.destroy();
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") });
        req.destroy();
      });
      res.on("error", reject);
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    source.pipe(req);
  });
}
