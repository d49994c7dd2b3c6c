/**
 * The one database interface every repository takes. PGlite (embedded) and PostgreSQL (`pg`) both
 * implement it, so the same SQL runs on both.
 */
export interface Queryable {
  /** one parameterized statement; rows come back with int8 as number, numeric and date as strings */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** a script of several statements, no parameters (migrations) */
  exec(script: string): Promise<void>;
}

/** the statements of one transaction */
export interface Transaction extends Queryable {
  /**
   * Runs `last`, the transaction's last step: the statements it sends at once (one Promise.all) go with
   * the COMMIT, which then costs no round trip of its own. The transaction commits when they all succeed
   * and rolls back when one fails; a statement `last` sends after its first ones is refused, and so is
   * any after it.
   */
  commitWith<T>(last: () => Promise<T>): Promise<T>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /**
   * runs fn in one transaction: committed when it resolves (or with the statements of `commitWith`),
   * rolled back when it throws before
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Calls `onPayload` with each NOTIFY on `channel` (a lower-case SQL name), from any connection or node,
   * once its transaction commits; resolves to the unsubscribe
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * The embedded database's files as one tar archive (PGlite only), which another embedded database can
   * start from (`openDatabase`'s `startFrom`): a migrated database copied in a fraction of a second, where
   * creating one takes seconds
   */
  snapshot?(): Promise<Uint8Array>;
  /**
   * Statements that wrote so far, by the tables they name (embedded database only: drives its stand-in
   * for autovacuum)
   */
  writesByTable?(): ReadonlyMap<string, number>;
  /**
   * The job queue's way into the embedded database (PGlite only), where pg-boss's PGlite adapter runs its
   * statements; on PostgreSQL pg-boss keeps a pool of its own
   */
  readonly jobsDatabase?: {
    executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  };
}

/** PostgreSQL type OIDs whose default parsing we override, identically on both drivers */
export const OID = { int8: 20, numeric: 1700, date: 1082, bytea: 17 } as const;

/** the SQLSTATE and constraint of a failed statement, whichever driver raised it */
export function pgErrorOf(error: unknown): { code: string; constraint: string | undefined } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  return { code, constraint: typeof constraint === "string" ? constraint : undefined };
}

/** a COMMIT that PostgreSQL turned into a ROLLBACK: a statement of the transaction had failed (and was caught) */
export function rolledBackAtCommit(): Error {
  return new Error("the transaction was rolled back: one of its statements had failed");
}

export const UNIQUE_VIOLATION = "23505";
/** a guard found that a concurrent transaction changed what this one read */
export const SERIALIZATION_FAILURE = "40001";
export const UNDEFINED_TABLE = "42P01";
