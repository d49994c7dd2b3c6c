import { mkdirSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, protocol } from "@electric-sql/pglite";
// the adapter alone: the package's index loads all of pg-boss, 0.2 s of every start of this thread
import { fromPglite } from "pg-boss/dist/adapters/pglite.js";
import { OID, rolledBackAtCommit } from "./db.js";
import { ARRAY_TYPES_SQL, type ArrayType, COLUMN_PARSERS } from "./pglite-answers.js";
import { rememberFileStats } from "./pglite-file-stats.js";
import { type HostReply, type HostRequest, serializeError } from "./pglite-protocol.js";
import { createStatementCache } from "./pglite-statements.js";
import { isRead } from "./sql.js";

/**
 * The thread that owns the embedded database. PGlite's WASM PostgreSQL runs here, so its work does not
 * wait behind HTTP, validation and the engine on the application's thread, and the two use both cores.
 *
 * PGlite has one session. A transaction holds it from its first statement to its end; statements outside
 * transactions and the job queue's take it one batch at a time. Statements that arrive together (a
 * caller's Promise.all) run as one simple-protocol message where they can: inside a transaction, and
 * reads outside one (a multi-statement message is one implicit transaction, so writes there go alone).
 */

/**
 * Bytes go as they are, in the binary format: as hex text they doubled in size and PostgreSQL decoded them
 * again, and a result page of 120 kB took 7 ms to insert, 3 ms this way.
 */
const serializers = {
  [OID.bytea]: (value: unknown) => {
    if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
    // PGlite binds a Uint8Array in the binary format; its Serializer type knows only text
    return value as unknown as string;
  },
};

const port = parentPort;
if (port === null) throw new Error("pglite-host runs as a worker thread");
const dataDir: string | undefined = workerData?.dataDir;
/** a snapshot (`op: "snapshot"`) to start from instead of an empty database */
const startFrom: Uint8Array | undefined = workerData?.startFrom;
if (dataDir !== undefined) {
  mkdirSync(dataDir, { recursive: true });
  rememberFileStats();
}
/**
 * The database's own cache: PostgreSQL's default of 128 MB was resident in PGlite's WASM memory from the
 * start and through a batch's result pages; 32 MB lowered the server's RSS by some 100 MB with creates and
 * batches as fast (the files it caches stay in the OS's cache).
 */
const SHARED_BUFFERS = "32MB";
/**
 * A new WAL file is not filled with zeros first: 16 MB of zeros written through Emscripten's file system
 * made a COMMIT of 40-100 ms every 16 MB of WAL (some 2,800 creates) with every request waiting.
 * Zeros only reserve the disk space early; PGlite runs without fsync, so they bought no durability.
 */
const startParams = [
  ...PGlite.defaultStartParams,
  "-c",
  `shared_buffers=${SHARED_BUFFERS}`,
  "-c",
  "wal_init_zero=off",
];
/**
 * A snapshot as PGlite reads it (its arrayBuffer(), once): Node's own Blob copied the bytes in and streamed
 * them out again piece by piece, half of a start from a 43 MB snapshot (1.1-1.7 s against 0.6 s)
 */
class SnapshotBlob extends Blob {
  constructor(private readonly snapshot: Uint8Array) {
    super([]);
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.snapshot;
    // the thread's own copy (workerData is cloned): PGlite only reads it
    if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) return buffer;
    return this.snapshot.slice().buffer;
  }
}
const pg = await PGlite.create({
  dataDir,
  pgliteWasmModule: workerData?.wasmModule,
  loadDataDir: startFrom === undefined ? undefined : new SnapshotBlob(startFrom),
  parsers: COLUMN_PARSERS,
  serializers,
  startParams,
});
const statements = createStatementCache(pg);
const jobs = fromPglite(pg);

/** the session: taken in turn, first come first served */
let sessionTail: Promise<void> = Promise.resolve();
function takeSession(): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const turn = sessionTail.then(() => release);
  sessionTail = sessionTail.then(() => released);
  return turn;
}

async function withSession<T>(fn: () => Promise<T>): Promise<T> {
  const release = await takeSession();
  try {
    return await fn();
  } finally {
    release();
  }
}

type Statement = Extract<HostRequest, { op: "query" }>;
type Settle = (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;

const ERROR_RESPONSE = 0x45; // E
const NOTIFICATION = 0x41; // A
const SYNC = protocol.serialize.sync();

/**
 * A simple-protocol message run as PGlite's `exec` runs it (the query, then a Sync; the files synced
 * after), its answer kept as the wire protocol's bytes: the application's thread reads the rows
 * (pglite-answers.ts). What PGlite's own parsing did here is done from the bytes: its first error is
 * thrown, the notifications before it reach the listeners.
 */
async function runRaw(text: string): Promise<Uint8Array> {
  const query = protocol.serialize.query(text);
  const message = new Uint8Array(query.length + SYNC.length);
  message.set(query);
  message.set(SYNC, query.length);
  const chunks: Uint8Array[] = [];
  // each piece is a view of the database's memory, reused by the next
  await pg.execProtocolRawStream(message, { onRawData: (data) => void chunks.push(data.slice()) });
  const answer = chunks.length === 1 ? (chunks[0] as Uint8Array) : joined(chunks);
  const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readUInt32BE(at + 1)) {
    if (bytes[at] === ERROR_RESPONSE) throw databaseError(answer, text);
    if (bytes[at] === NOTIFICATION) notify(bytes, at + 5);
  }
  return answer;
}

/** the pieces in memory of their own, which can be moved to the other thread (`Buffer.concat` may share a pool) */
function joined(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** the answer's first error, as PGlite's parser builds it and its `exec` annotates it */
function databaseError(answer: Uint8Array, text: string): Error {
  let error: (Error & { query?: string }) | undefined;
  new protocol.Parser().parse(answer, (message) => {
    if (message instanceof protocol.messages.DatabaseError) error ??= message;
  });
  if (error === undefined) return new Error("the embedded database answered with an unreadable error");
  error.query = text;
  return error;
}

/** the tag of the answer's last CommandComplete (`COMMIT`, `ROLLBACK`, ...) */
function commandTagOf(answer: Uint8Array): string | undefined {
  let tag: string | undefined;
  new protocol.Parser().parse(answer, (message) => {
    if (message instanceof protocol.messages.CommandCompleteMessage) tag = message.text;
  });
  return tag;
}

/** a NotificationResponse (process id, channel, payload) handed to the channel's listeners */
function notify(bytes: Buffer, at: number): void {
  const channelEnd = bytes.indexOf(0, at + 4);
  const payloadEnd = bytes.indexOf(0, channelEnd + 1);
  const channel = bytes.toString("utf8", at + 4, channelEnd);
  const payload = bytes.toString("utf8", channelEnd + 1, payloadEnd);
  for (const listener of channelListeners.get(channel)?.values() ?? []) reply({ notice: listener, payload });
}

/**
 * Runs statements in order; those with a simple-protocol text share one message, whose answer goes to the
 * application as bytes. `transaction`: the open transaction they belong to, whose BEGIN rides on the first
 * message that goes.
 */
async function runStatements(batch: readonly Statement[], transaction: OpenTransaction | undefined) {
  const inTransaction = transaction !== undefined;
  let texts: { text: string; id: number }[] = [];
  const flush = async () => {
    if (texts.length === 0) return;
    const group = texts;
    texts = [];
    const prefix = beginOf(transaction);
    let bytes: Uint8Array;
    try {
      bytes = await runRaw([...prefix, ...group.map((entry) => entry.text)].join(";\n"));
    } catch (error) {
      // inside a transaction the failure aborts it: every statement of the message answers it
      if (inTransaction || group.length === 1) {
        for (const entry of group) answer(entry.id)({ ok: false, error });
        return;
      }
      // reads outside a transaction: run again one by one, so each gets its own answer
      for (const entry of group) await runAlone(entry.text, undefined, entry.id);
      return;
    }
    replyRows(
      bytes,
      group.map((entry, i) => ({ id: entry.id, result: i + prefix.length })),
    );
  };
  for (const statement of batch) {
    const text = await statements.textOf(statement.text, statement.params, inTransaction);
    const shareable = text !== undefined && (inTransaction || isRead(statement.text));
    if (shareable) texts.push({ text, id: statement.id });
    else {
      await flush();
      for (const begin of beginOf(transaction)) await pg.exec(begin);
      await runAlone(text ?? statement.text, text === undefined ? statement.params : undefined, statement.id);
    }
  }
  await flush();
}

/** one statement: with parameters through PGlite's extended protocol, else as bytes (its last result's rows) */
async function runAlone(text: string, params: readonly unknown[] | undefined, id: number) {
  try {
    if (params === undefined) replyRows(await runRaw(text), [{ id, result: -1 }]);
    else answer(id)({ ok: true, value: (await pg.query(text, params as unknown[])).rows });
  } catch (error) {
    answer(id)({ ok: false, error });
  }
}

/** an open transaction: the session it holds, and whether its BEGIN has run */
interface OpenTransaction {
  release: () => void;
  begun: boolean;
}
const transactions = new Map<number, OpenTransaction>();

/** ["BEGIN"] the first time a transaction's statements go, so that it rides on them; [] after */
function beginOf(transaction: OpenTransaction | undefined): string[] {
  if (transaction === undefined || transaction.begun) return [];
  transaction.begun = true;
  return ["BEGIN"];
}
const listeners = new Map<number, () => Promise<void>>();
/** the listeners of each channel, for the notifications that arrive in an answer read as bytes */
const channelListeners = new Map<string, Set<number>>();

async function endTransaction(tx: number, commit: boolean): Promise<void> {
  const open = transactions.get(tx);
  if (open === undefined) throw new Error(`transaction ${tx} is not open`);
  transactions.delete(tx);
  try {
    if (open.begun && !commit) await pg.exec("ROLLBACK");
    // PostgreSQL answers the COMMIT of a failed transaction by rolling it back, without an error
    if (open.begun && commit && commandTagOf(await runRaw("COMMIT")) !== "COMMIT") throw rolledBackAtCommit();
  } catch (error) {
    if (pg.isInTransaction()) await pg.exec("ROLLBACK");
    throw error;
  } finally {
    await statements.prepareDue().finally(open.release);
  }
}

async function handleOther(request: Exclude<HostRequest, Statement>): Promise<unknown> {
  switch (request.op) {
    case "exec": {
      const transaction = request.tx === undefined ? undefined : transactions.get(request.tx);
      const script = [...beginOf(transaction), request.script].join(";\n");
      if (transaction === undefined) await withSession(() => pg.exec(script));
      else await pg.exec(script);
      return undefined;
    }
    case "end":
      return endTransaction(request.tx, request.commit);
    case "jobs":
      return withSession(async () => (await jobs.executeSql(request.text, request.values)).rows);
    case "listen": {
      const listener = request.id;
      const { channel } = request;
      const unlisten = await withSession(() =>
        pg.listen(channel, (payload) => reply({ notice: listener, payload })),
      );
      const ofChannel =
        channelListeners.get(channel) ?? channelListeners.set(channel, new Set()).get(channel);
      ofChannel?.add(listener);
      listeners.set(listener, async () => {
        ofChannel?.delete(listener);
        await unlisten();
      });
      return listener;
    }
    case "unlisten": {
      const unlisten = listeners.get(request.listener);
      listeners.delete(request.listener);
      if (unlisten !== undefined && !pg.closed) await withSession(unlisten);
      return undefined;
    }
    case "snapshot":
      return withSession(async () => {
        // the files as a clean stop leaves them: a copy taken without it starts as after a crash, its
        // sequences 32 values ahead
        await pg.exec("CHECKPOINT");
        return new Uint8Array(await (await pg.dumpDataDir("none")).arrayBuffer());
      });
    case "close":
      return withSession(() => pg.close());
  }
}

function reply(message: HostReply): void {
  port?.postMessage(message);
}

/** an answer's bytes, moved to the application, with the result each statement reads from them */
function replyRows(answer: Uint8Array, answers: { id: number; result: number }[]): void {
  port?.postMessage({ answers, bytes: answer } satisfies HostReply, [answer.buffer as ArrayBuffer]);
}

const answer =
  (id: number): Settle =>
  (outcome) =>
    reply(
      outcome.ok
        ? { id, ok: true, value: outcome.value }
        : { id, ok: false, error: serializeError(outcome.error) },
    );

/**
 * A lane runs its requests in the order sent: one per transaction, one for statements outside
 * transactions, and one per request of any other kind. Lanes do not wait for each other, but for the
 * session.
 */
interface Lane {
  queue: HostRequest[];
  running: boolean;
}
const lanes = new Map<string, Lane>();

function laneOf(request: HostRequest): string {
  if ("tx" in request && request.tx !== undefined) return `tx:${request.tx}`;
  return request.op === "query" ? "outside" : `request:${request.id}`;
}

async function drain(key: string, lane: Lane): Promise<void> {
  lane.running = true;
  while (lane.queue.length > 0) {
    const first = lane.queue[0] as HostRequest;
    const tx = "tx" in first ? first.tx : undefined;
    if (tx !== undefined && "begin" in first && first.begin)
      transactions.set(tx, { release: await takeSession(), begun: false });
    const transaction = tx === undefined ? undefined : transactions.get(tx);
    if (tx !== undefined && transaction === undefined) {
      lane.queue.shift();
      answer(first.id)({ ok: false, error: new Error(`transaction ${tx} is not open`) });
      continue;
    }
    if (first.op === "query") {
      let count = 1;
      while (lane.queue[count]?.op === "query") count++;
      const batch = lane.queue.splice(0, count) as Statement[];
      if (transaction !== undefined) await runStatements(batch, transaction);
      else await withSession(() => runStatements(batch, undefined));
      continue;
    }
    lane.queue.shift();
    await handleOther(first as Exclude<HostRequest, Statement>).then(
      (value) => answer(first.id)({ ok: true, value }),
      (error: unknown) => answer(first.id)({ ok: false, error }),
    );
  }
  lane.running = false;
  lanes.delete(key);
}

port.on("message", (requests: HostRequest[]) => {
  // every request of the message is queued before any lane starts, so that a lane's batch holds them all
  const woken = new Map<string, Lane>();
  for (const request of requests) {
    const key = laneOf(request);
    let lane = lanes.get(key);
    if (lane === undefined) {
      lane = { queue: [], running: false };
      lanes.set(key, lane);
    }
    lane.queue.push(request);
    if (!lane.running) woken.set(key, lane);
  }
  for (const [key, lane] of woken) void drain(key, lane);
});
const arrayTypes: ArrayType[] = (await pg.query<ArrayType>(ARRAY_TYPES_SQL)).rows;
reply({ id: 0, ok: true, value: arrayTypes });
