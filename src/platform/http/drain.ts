import type { Readable } from "node:stream";

/**
 * What is left of a refused request's body is read and dropped, at most this much (per request, across
 * calls) and for at most this long: answering while the client still sends makes the server's close a
 * reset (EPIPE on its side), and the client never reads the answer.
 */
export const DRAIN_AT_MOST = { bytes: 64 * 1024 ** 2, ms: 10_000 };

/** what each body has been drained of so far, so that two drains of one request share the bound */
const spent = new WeakMap<Readable, { bytes: number; since: number }>();

/** Reads and drops the rest of a body; resolves at its end, on an error or close, or at the bound. */
export async function drainBody(body: Readable, bound = DRAIN_AT_MOST): Promise<void> {
  if (body.readableEnded || body.destroyed) return;
  const used = spent.get(body) ?? { bytes: 0, since: Date.now() };
  spent.set(body, used);
  const msLeft = bound.ms - (Date.now() - used.since);
  if (used.bytes >= bound.bytes || msLeft <= 0) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      body.off("data", count).off("end", done).off("error", done).off("close", done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      used.bytes += chunk.length;
      if (used.bytes >= bound.bytes) done();
    };
    const timer = setTimeout(done, msLeft);
    body.on("data", count).once("end", done).once("error", done).once("close", done);
    body.resume();
  });
}
