import type { PGlite } from "@electric-sql/pglite";

/**
 * Planning costs embedded PostgreSQL more than running the query: 230 µs of a 305 µs page read
 * (measured with EXPLAIN on a 1,000-row table). Every PGlite query with parameters is parsed and planned
 * anew, so repeated statements are PREPAREd once and run with EXECUTE, halving the time of a typical
 * read. PGlite has one session, so a prepared statement serves every later caller.
 */

/** distinct statements kept prepared; beyond it new texts take the ordinary path */
const MAX_PREPARED = 500;

type Scalar = string | number | boolean | bigint | Date | null | undefined;

/**
 * A parameter as an SQL literal, as libpq's PQescapeLiteral writes it (E'' when a backslash occurs, so the
 * result does not depend on standard_conforming_strings). Undefined when the value is not a plain scalar
 * (arrays, objects, NUL bytes, NaN): those go through bind parameters as usual.
 */
export function sqlLiteral(value: Scalar | unknown): string | undefined {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : `'${value.toISOString()}'`;
  if (typeof value !== "string" || value.includes("\0")) return undefined;
  const quoted = `'${value.replaceAll("'", "''")}'`;
  return value.includes("\\") ? `E${quoted.replaceAll("\\", "\\\\")}` : quoted;
}

/** a statement seen this often inside transactions is prepared, once they are over */
const PREPARE_AFTER_USES = 2;

export function createStatementCache(pg: PGlite) {
  const names = new Map<string, Promise<string | undefined>>();
  /** texts run inside transactions (how often), those now due for preparing, and the names of those prepared */
  const seenInTransactions = new Map<string, number>();
  const due: string[] = [];
  const ready = new Map<string, string>();

  const nameFor = (text: string): Promise<string | undefined> => {
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= MAX_PREPARED) return Promise.resolve(undefined);
      const candidate = `mizan_${names.size + 1}`;
      // a text that cannot be prepared (or fails to) simply keeps the ordinary path
      name = pg.exec(`PREPARE ${candidate} AS ${text}`).then(
        () => {
          ready.set(text, candidate);
          return candidate;
        },
        () => undefined,
      );
      names.set(text, name);
    }
    return name;
  };

  const execute = async <T>(target: Pick<PGlite, "query">, name: string, literals: string[]) =>
    (
      await target.query<T>(
        literals.length > 0 ? `EXECUTE ${name}(${literals.join(", ")})` : `EXECUTE ${name}`,
      )
    ).rows;

  return {
    /** runs `text` through its prepared statement (preparing it first); undefined: take the ordinary path */
    async executePrepared<T>(text: string, params: readonly unknown[]): Promise<T[] | undefined> {
      const literals = params.map(sqlLiteral);
      if (literals.some((literal) => literal === undefined)) return undefined;
      const name = await nameFor(text);
      if (name === undefined) return undefined;
      return execute<T>(pg, name, literals as string[]);
    },

    /**
     * Inside a transaction: runs `text` prepared when it already is, and otherwise notes it, so that a
     * statement transactions keep running is prepared once they are over (PREPARE is never run inside
     * one, where its failure would abort the caller's transaction). Undefined: take the ordinary path.
     */
    async executeInTransaction<T>(
      tx: Pick<PGlite, "query">,
      text: string,
      params: readonly unknown[],
    ): Promise<T[] | undefined> {
      const name = ready.get(text);
      if (name === undefined) {
        if (!names.has(text)) {
          const uses = (seenInTransactions.get(text) ?? 0) + 1;
          seenInTransactions.set(text, uses);
          if (uses === PREPARE_AFTER_USES) due.push(text);
        }
        return undefined;
      }
      const literals = params.map(sqlLiteral);
      if (literals.some((literal) => literal === undefined)) return undefined;
      return execute<T>(tx, name, literals as string[]);
    },

    /** prepares what transactions ran often enough; call it outside transactions */
    async prepareSeen(): Promise<void> {
      for (let text = due.shift(); text !== undefined; text = due.shift()) {
        seenInTransactions.delete(text);
        await nameFor(text);
      }
    },
  };
}
