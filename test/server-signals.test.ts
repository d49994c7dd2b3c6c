import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { trapSignals } from "../src/server.js";

/** process.exit recorded instead of done, for the length of `run`; the signal listeners it adds go after */
async function recordingExit(run: (exits: number[]) => Promise<void>): Promise<void> {
  const before = new Set([...process.listeners("SIGTERM"), ...process.listeners("SIGINT")]);
  const exit = process.exit;
  const exits: number[] = [];
  process.exit = ((code?: number) => {
    exits.push(code ?? 0);
  }) as typeof process.exit;
  try {
    await run(exits);
  } finally {
    process.exit = exit;
    for (const signal of ["SIGTERM", "SIGINT"] as const)
      for (const listener of process.listeners(signal))
        if (!before.has(listener)) process.removeListener(signal, listener);
  }
}

const silent = { info() {}, error() {} };

describe("signals (serve, worker)", () => {
  it("keeps a SIGTERM that arrives while the process starts, and drains once it has started", async () => {
    await recordingExit(async (exits) => {
      const attach = trapSignals();
      process.emit("SIGTERM", "SIGTERM");
      let closed = false;
      attach(
        {
          close: async () => {
            closed = true;
          },
        },
        silent,
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(closed, true, "what had started was closed");
      assert.deepEqual(exits, [0]);
    });
  });

  it("drains on a SIGINT after the start, and exits 1 when closing fails", async () => {
    await recordingExit(async (exits) => {
      const attach = trapSignals();
      attach({ close: async () => Promise.reject(new Error("the database is gone")) }, silent);
      process.emit("SIGINT", "SIGINT");
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(exits, [1]);
    });
  });
});
