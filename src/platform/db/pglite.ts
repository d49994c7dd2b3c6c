import { readFile } from "node:fs/promises";
import { startThreadBeside } from "../threads.js";
import type { Db, Queryable, Transaction } from "./db.js";
import { type LastStep, runLastStep, whenSettled } from "./last-step.js";
import { type ArrayType, columnParsers, rowsOfAnswer } from "./pglite-answers.js";
import { deserializeError, type HostReply, type HostRequest } from "./pglite-protocol.js";

const WRITTEN_TABLE =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)/gi;

/** counts the writes of statements by the tables they name (each text is read once) */
function createWriteCounter() {
  const tablesOf = new Map<string, string[]>();
  const writes = new Map<string, number>();
  return {
    writes: writes as ReadonlyMap<string, number>,
    note(text: string): void {
      let tables = tablesOf.get(text);
      if (tables === undefined) {
        tables = [
          ...new Set([...text.matchAll(WRITTEN_TABLE)].map((match) => (match[1] as string).toLowerCase())),
        ];
        if (tablesOf.size < 5_000) tablesOf.set(text, tables);
      }
      for (const table of tables) writes.set(table, (writes.get(table) ?? 0) + 1);
    },
  };
}

/**
 * PGlite's PostgreSQL compiled once a process and shared by its embedded databases' threads: each thread
 * compiling its own took a test's database half a second more to open, and V8's optimizing tier then compiled
 * the hot functions again in every thread (the second core busy seconds after each open)
 */
let compiling: Promise<WebAssembly.Module> | undefined;
function compiledPostgres(): Promise<WebAssembly.Module> {
  compiling ??= readFile(new URL("./pglite.wasm", import.meta.resolve("@electric-sql/pglite"))).then(
    (bytes) => WebAssembly.compile(bytes),
  );
  return compiling;
}

/** a transaction as the application sees it */
interface OpenTransaction {
  tx: number;
  begun: boolean;
  step: LastStep;
  /** the COMMIT sent after the last step's statements, without waiting for their answers: "not sent" when the step failed first */
  ending: Promise<"sent" | "not sent"> | undefined;
  endSent: boolean;
}

type Ask = (request: DistributiveOmit<HostRequest, "id">) => Promise<unknown>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/**
 * Embedded PostgreSQL, in a thread of its own (pglite-host.ts). `dataDir` undefined keeps everything in
 * memory (tests). It counts the writes it is asked to run by table, for the maintenance that stands in
 * for autovacuum (see maintenance.ts).
 */
export async function openPglite(dataDir: string | undefined, startFrom?: Uint8Array): Promise<Db> {
  const wasmModule = await compiledPostgres();
  const worker = startThreadBeside(import.meta.url, "pglite-host", { dataDir, startFrom, wasmModule });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const notices = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let stopped: Error | undefined;

  // the thread keeps the process alive only while it has work in hand
  const settle = (id: number) => {
    const entry = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return entry;
  };
  let parsers: ReturnType<typeof columnParsers> = {};
  const ready = new Promise<void>((resolve, reject) => {
    // the host answers with the array types its rows are read by
    const started = (arrayTypes: unknown) => {
      parsers = columnParsers(arrayTypes as ArrayType[]);
      resolve();
    };
    pending.set(0, { resolve: started, reject });
  });
  worker.on("message", (message: HostReply) => {
    if ("notice" in message) {
      notices.get(message.notice)?.(message.payload);
      return;
    }
    if ("answers" in message) {
      const results = rowsOfAnswer(message.bytes, parsers);
      for (const { id, result } of message.answers) settle(id)?.resolve(results.at(result) ?? []);
      return;
    }
    const entry = settle(message.id);
    if (message.ok) entry?.resolve(message.value);
    else entry?.reject(deserializeError(message.error));
  });
  const fail = (error: Error) => {
    stopped ??= error;
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the embedded database's thread stopped (exit code ${code})`)));
  await ready;

  // the requests of one tick cross as one message
  let outbox: HostRequest[] = [];
  const flush = () => {
    worker.postMessage(outbox);
    outbox = [];
  };
  const ask: Ask = (request) => {
    if (stopped !== undefined) return Promise.reject(stopped);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (outbox.length === 0) queueMicrotask(flush);
      outbox.push({ ...request, id } as HostRequest);
    });
  };

  const counter = createWriteCounter();
  let nextTransaction = 1;
  /** statements outside a transaction, or in one (which begins with its first statement) */
  const on = (transaction?: OpenTransaction): Queryable => {
    const tx = transaction?.tx;
    const first = (): { begin?: true } => {
      if (transaction === undefined || transaction.begun) return {};
      transaction.begun = true;
      return { begin: true };
    };
    /** refuses statements after the last step's; the last step's first statement sends the COMMIT after it */
    const refuseLate = (): void => {
      if (transaction === undefined) return;
      if (transaction.endSent) throw new Error("a statement was sent after its transaction's last step");
      if (transaction.step.committing && transaction.ending === undefined) {
        const { step } = transaction;
        // after the step's other statements, which go to the same lane first, unless its own code failed
        transaction.ending = whenSettled().then(async () => {
          if (step.failed) return "not sent";
          transaction.endSent = true;
          await ask({ op: "end", tx: transaction.tx, commit: true });
          return "sent";
        });
        // the transaction's own end awaits it; a refusal must not count as unhandled before then
        transaction.ending.catch(() => {});
      }
    };
    return {
      query: async <T>(text: string, params?: readonly unknown[]) => {
        refuseLate();
        counter.note(text);
        return (await ask({ op: "query", tx, ...first(), text, params })) as T[];
      },
      exec: async (script: string) => {
        refuseLate();
        counter.note(script);
        await ask({ op: "exec", tx, ...first(), script });
      },
    };
  };
  const inTransaction = (transaction: OpenTransaction): Transaction => ({
    ...on(transaction),
    commitWith: (last) => runLastStep(transaction.step, last),
  });
  const outside = on();

  return {
    kind: "pglite",
    ...outside,
    writesByTable: () => counter.writes,
    jobsDatabase: {
      executeSql: async (text, values) => {
        counter.note(text);
        return { rows: (await ask({ op: "jobs", text, values })) as unknown[] };
      },
    },
    transaction: async (fn) => {
      const transaction: OpenTransaction = {
        tx: nextTransaction++,
        begun: false,
        step: { committing: false, failed: false },
        ending: undefined,
        endSent: false,
      };
      const end = (commit: boolean) =>
        transaction.begun ? ask({ op: "end", tx: transaction.tx, commit }) : Promise.resolve();
      const ending = () => transaction.ending ?? Promise.resolve("not sent");
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(inTransaction(transaction));
      } catch (error) {
        // a COMMIT the database refused has rolled the transaction back
        if ((await ending().catch(() => "sent")) === "not sent") await end(false).catch(() => {});
        throw error;
      }
      if ((await ending()) === "not sent") await end(true);
      return result;
    },
    listen: async (channel, onPayload) => {
      const listener = (await ask({ op: "listen", channel })) as number;
      notices.set(listener, onPayload);
      return async () => {
        notices.delete(listener);
        // a database closed first has no listeners left to remove
        if (stopped === undefined) await ask({ op: "unlisten", listener });
      };
    },
    snapshot: async () => (await ask({ op: "snapshot" })) as Uint8Array,
    close: async () => {
      if (stopped !== undefined) return;
      await ask({ op: "close" });
      stopped = new Error("the embedded database is closed");
      await worker.terminate();
    },
  };
}
