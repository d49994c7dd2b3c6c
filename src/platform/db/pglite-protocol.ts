/**
 * The messages between the application and the thread that owns the embedded database (pglite-host.ts).
 * The application sends the requests of one tick as one array. Every request carries an id its reply
 * repeats; notifications carry the id of the LISTEN that asked. A transaction is numbered by the
 * application: its first statement says `begin`, and the host runs each transaction's requests, and those
 * outside transactions, in the order they were sent.
 */
export type HostRequest =
  | {
      id: number;
      op: "query";
      tx: number | undefined;
      begin?: true;
      text: string;
      params: readonly unknown[] | undefined;
    }
  | { id: number; op: "exec"; tx: number | undefined; begin?: true; script: string }
  | { id: number; op: "end"; tx: number; commit: boolean }
  /** a statement of the job queue, run as pg-boss's own PGlite adapter runs it */
  | { id: number; op: "jobs"; text: string; values: unknown[] | undefined }
  | { id: number; op: "listen"; channel: string }
  | { id: number; op: "unlisten"; listener: number }
  /** the database's files as one tar archive */
  | { id: number; op: "snapshot" }
  | { id: number; op: "close" };

export type HostReply =
  | { id: number; ok: true; value: unknown }
  /** one message's answer as the wire protocol's bytes, and the result (-1: the last) each request reads */
  | { answers: { id: number; result: number }[]; bytes: Uint8Array }
  | { id: number; ok: false; error: SerializedError }
  | { notice: number; payload: string };

/** a database error's message and its fields (code, constraint, detail...), which survive the crossing */
export interface SerializedError {
  message: string;
  fields: Record<string, string | number | boolean>;
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = { name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      fields[key] = value;
  }
  return { message: error.message, fields };
}

export function deserializeError(error: SerializedError): Error {
  const { name, ...fields } = error.fields;
  const revived = Object.assign(new Error(error.message), fields);
  if (typeof name === "string") revived.name = name;
  return revived;
}
