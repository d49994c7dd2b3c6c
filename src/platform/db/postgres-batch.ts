import { createHash } from "node:crypto";
import type pg from "pg";
import type { Queryable, Transaction } from "./db.js";
import { type LastStep, runLastStep, whenSettled } from "./last-step.js";
import { isRead, sqlLiteral } from "./sql.js";

/**
 * `pg` sends one statement per round trip, and on a VM every write to a socket that wakes the database is
 * costly (half the application thread's time went to socket writes under 20 clients). So statements
 * issued together (a caller's Promise.all) that a connection has prepared go to it as one simple-protocol
 * message of EXECUTEs, their parameters written as literals: a create's reads cost one round trip instead
 * of six. A statement not prepared there yet, or with a parameter no literal can carry (arrays, bytes),
 * takes the ordinary path, which prepares it. A connection runs what it is sent in turn, so the order
 * holds either way.
 */

/**
 * A parameterized statement as a named one: `pg` prepares it once per connection and then only binds,
 * so PostgreSQL does not parse and plan the same text again. Scripts without parameters go as they are.
 */
const names = new Map<string, string>();
function statementOf(text: string, params: readonly unknown[] | undefined) {
  if (params === undefined || params.length === 0) return { text };
  let name = names.get(text);
  if (name === undefined) {
    name = `m_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    if (names.size < 5_000) names.set(text, name);
  }
  return { name, text, values: params as unknown[] };
}

/** the statements a connection has prepared (by name), learnt from their first successful run */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

function preparedBy(conn: pg.PoolClient): Set<string> {
  let prepared = preparedOn.get(conn);
  if (prepared === undefined) {
    prepared = new Set();
    preparedOn.set(conn, prepared);
  }
  return prepared;
}

interface Pending {
  text: string;
  params: readonly unknown[] | undefined;
  /** a script (exec): always sent alone, as it is */
  script: boolean;
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

/** the statement as text that can share a message on `conn`, or undefined when it must go alone */
function shareableText(statement: Pending, prepared: Set<string>): string | undefined {
  if (statement.script) return undefined;
  const { name } = statementOf(statement.text, statement.params);
  // a text of its own without parameters shares the message unless it could hold several statements
  if (name === undefined) return statement.text.includes(";") ? undefined : statement.text;
  if (!prepared.has(name)) return undefined;
  const literals = (statement.params ?? []).map(sqlLiteral);
  if (literals.some((literal) => literal === undefined)) return undefined;
  // quoted: the name is case-sensitive and may hold "-"
  return `EXECUTE "${name}"(${literals.join(", ")})`;
}

function sendAlone(conn: pg.PoolClient, statement: Pending): Promise<void> {
  const config = statement.script ? { text: statement.text } : statementOf(statement.text, statement.params);
  return conn.query(config).then(
    (result) => {
      if ("name" in config && config.name !== undefined) preparedBy(conn).add(config.name);
      statement.resolve(result.rows);
    },
    (error: unknown) => statement.reject(error),
  );
}

/**
 * Sends `batch` to `conn` in order, one message at a time, consecutive shareable statements as one message
 * (with `prefix`, the transaction's BEGIN, on the first that goes, and `suffix`, its COMMIT, on the last);
 * resolves once every statement has its answer, to the suffix's command tag (`COMMIT`, or `ROLLBACK` when
 * the transaction had failed) or undefined when it did not run. A failed message fails all its statements,
 * unless `retryAlone` (reads outside a transaction): then each runs again alone, for an answer of its own.
 */
async function sendBatch(
  conn: pg.PoolClient,
  batch: readonly Pending[],
  options: { prefix: () => string[]; suffix: readonly string[]; retryAlone: boolean },
): Promise<string | undefined> {
  const prepared = preparedBy(conn);
  let group: { statement: Pending; text: string }[] = [];
  let suffixTag: string | undefined;
  const sendGroup = async (suffix: readonly string[]) => {
    const entries = group;
    group = [];
    if (entries.length === 0 && suffix.length === 0) return;
    const prefix = options.prefix();
    if (prefix.length === 0 && suffix.length === 0 && entries.length === 1) {
      await sendAlone(conn, (entries[0] as { statement: Pending }).statement);
      return;
    }
    try {
      const texts = [...prefix, ...entries.map((entry) => entry.text), ...suffix];
      const result = await conn.query(texts.join(";\n"));
      const results = Array.isArray(result) ? result : [result];
      for (const [i, entry] of entries.entries())
        entry.statement.resolve(results[i + prefix.length]?.rows ?? []);
      if (suffix.length > 0) suffixTag = results.at(-1)?.command;
    } catch (error) {
      if (!options.retryAlone) {
        for (const entry of entries) entry.statement.reject(error);
        return;
      }
      for (const entry of entries) await sendAlone(conn, entry.statement);
    }
  };
  for (const statement of batch) {
    const text = shareableText(statement, prepared);
    if (text !== undefined) {
      group.push({ statement, text });
      continue;
    }
    await sendGroup([]);
    const prefix = options.prefix();
    // its failure surfaces as the statement's
    if (prefix.length > 0) await conn.query(prefix.join(";\n")).catch(() => {});
    await sendAlone(conn, statement);
  }
  await sendGroup(options.suffix);
  return suffixTag;
}

/** a batch that failed as a whole (no connection, say) answers each statement not answered yet */
function failAll(batch: readonly Pending[], error: unknown): void {
  for (const statement of batch) statement.reject(error);
}

/** collects the statements of one tick and hands them to `send` together */
function collector(send: (batch: Pending[]) => void) {
  let pending: Pending[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    send(batch);
  };
  return (statement: Omit<Pending, "resolve" | "reject">) =>
    new Promise<unknown[]>((resolve, reject) => {
      if (pending.length === 0) queueMicrotask(flush);
      pending.push({ ...statement, resolve, reject });
    });
}

/** how a transaction ended with its last statements (`commitWith`): not yet, committed, or rolled back */
type Ending = "open" | "committing" | "committed" | "rolled back";

/**
 * A transaction's statements on its connection; BEGIN rides on the first message, and COMMIT on the
 * statements of `commitWith`. `end()` before COMMIT or ROLLBACK: the connection is then another
 * caller's, and a late statement must not run there.
 */
export function transactionOn(conn: pg.PoolClient): Transaction & {
  readonly begun: boolean;
  /** "committed" or "rolled back" once the statements of `commitWith` went with the COMMIT */
  readonly ending: Ending;
  end(): Promise<void>;
} {
  let begun = false;
  let ended = false;
  const step: LastStep = { committing: false, failed: false };
  let ending: Ending = "open";
  /** the batches sent so far: one connection runs one message at a time */
  let sending: Promise<void> = Promise.resolve();
  const prefix = () => {
    if (begun) return [];
    begun = true;
    return ["BEGIN"];
  };
  const sendLast = async (batch: Pending[]) => {
    // the COMMIT goes only when the step's own code has not failed meanwhile
    await whenSettled();
    const commit = !step.failed;
    try {
      const tag = await sendBatch(conn, batch, {
        prefix,
        suffix: commit ? ["COMMIT"] : [],
        retryAlone: false,
      });
      ending = !commit || tag === undefined ? "open" : tag === "COMMIT" ? "committed" : "rolled back";
    } catch (error) {
      ending = "open";
      failAll(batch, error);
    }
  };
  const enqueue = collector((batch) => {
    if (step.committing && ending === "open") {
      ending = "committing";
      sending = sending.then(() => sendLast(batch));
      return;
    }
    sending = sending.then(() =>
      sendBatch(conn, batch, { prefix, suffix: [], retryAlone: false }).then(
        () => {},
        (error: unknown) => failAll(batch, error),
      ),
    );
  });
  const send = (statement: Omit<Pending, "resolve" | "reject">) => {
    if (ended) return Promise.reject(new Error("a statement was sent after its transaction ended"));
    if (ending !== "open")
      return Promise.reject(new Error("a statement was sent after its transaction's last step"));
    return enqueue(statement);
  };
  return {
    get begun() {
      return begun;
    },
    get ending() {
      return ending;
    },
    /** refuses later statements; resolves once those sent have their answers */
    end() {
      ended = true;
      // after a turn: statements issued in this tick are flushed (onto `sending`) first
      return Promise.resolve().then(() => sending);
    },
    query: async <T>(text: string, params?: readonly unknown[]) =>
      (await send({ text, params, script: false })) as T[],
    exec: async (script: string) => {
      await send({ text: script, params: undefined, script: true });
    },
    commitWith: (last) => runLastStep(step, last),
  };
}

/**
 * Statements outside transactions. Reads of one tick share one connection and, where it has prepared
 * them, one message (a message is one implicit transaction, so writes go alone, as the pool sends them).
 */
export function outsideTransactions(pool: pg.Pool): Queryable {
  const sendReads = async (batch: Pending[]) => {
    const conn = await pool.connect();
    try {
      await sendBatch(conn, batch, { prefix: () => [], suffix: [], retryAlone: true });
    } finally {
      conn.release();
    }
  };
  const read = collector((batch) => {
    sendReads(batch).catch((error: unknown) => failAll(batch, error));
  });
  return {
    query: async <T>(text: string, params?: readonly unknown[]) => {
      if (isRead(text)) return (await read({ text, params, script: false })) as T[];
      return (await pool.query(statementOf(text, params))).rows as T[];
    },
    exec: async (script: string) => {
      await pool.query(script);
    },
  };
}
