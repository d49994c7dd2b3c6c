import { type Db, pgErrorOf, UNDEFINED_TABLE } from "./db.js";

export interface MaintenanceLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MaintenanceOptions {
  /** how often to look at the write counters for tables that doubled since their last ANALYZE */
  checkEveryMs?: number;
  /** how often to look for tables whose writes since their last ANALYZE pass this plus a tenth of their rows... */
  thresholdCheckEveryMs?: number;
  /** (the base of that threshold, and the least number of writes that counts as doubling) */
  analyzeBaseWrites?: number;
  /** ...or when any of them is this old */
  analyzeAtMostEveryMs?: number;
  vacuumEveryMs?: number;
}

/**
 * The statistics target of the re-analyses: ANALYZE samples 300 rows per unit, so 3,000 rows here against
 * 30,000 by default. Its pause grew with the table up to the default's sample (170 ms for the request
 * items under the prior-authorization bench, every few seconds, with every request waiting); with this
 * one it stays near 10 ms, and the plans of the key lookups the service runs do not change.
 */
const SAMPLE_TARGET = 10;

const totalOf = (writes: ReadonlyMap<string, number>): number => {
  let total = 0;
  for (const count of writes.values()) total += count;
  return total;
};

/**
 * VACUUM of every table, the catalogs' too (as a database-wide VACUUM), one statement each, so requests
 * wait at most one table's; it does not analyze: written tables are analyzed within a minute anyway, from
 * the small sample. A table dropped meanwhile is skipped; the pass ends early once maintenance stops.
 */
async function vacuumEachTable(
  db: Db,
  stopped: () => boolean,
): Promise<{ tables: number; longestMs: number }> {
  const tables = await db.query<{ name: string }>(
    "SELECT oid::regclass::text AS name FROM pg_class WHERE relkind IN ('r', 'm')",
  );
  let longest = 0;
  for (const { name } of tables) {
    if (stopped()) break;
    const started = performance.now();
    // the name is the catalog's own, quoted by regclass where it needs to be
    await db.exec(`VACUUM ${name}`).catch((error: unknown) => {
      if (pgErrorOf(error)?.code !== UNDEFINED_TABLE) throw error;
    });
    longest = Math.max(longest, performance.now() - started);
  }
  return { tables: tables.length, longestMs: Math.round(longest) };
}

/**
 * Embedded PostgreSQL runs without the autovacuum daemon, so nothing would ever ANALYZE or VACUUM: the
 * planner keeps guessing row counts (measured here: a 10-row page of 1,000 networks took 764 µs before
 * ANALYZE, 225 µs after) and dead rows pile up. This does the daemon's job in-process, after one ANALYZE
 * at start: it analyzes a table, as autovacuum would, when its writes since the last ANALYZE pass 50 plus
 * a tenth of its rows (the PGlite driver counts writes by table; checked every 5 s), and within a second
 * once a table has doubled since (a new database's tables analyzed empty: until the first check, creates
 * ran at half their rate on plans made for empty tables). Analyzing only those, one at a time, keeps
 * each pause short: the embedded database does nothing else meanwhile (a whole-database ANALYZE measured
 * 145 ms under the prior-authorization bench). Hourly, once anything was written, it VACUUMs every table,
 * also one at a time (the session held 760 ms by one `VACUUM (ANALYZE)` of the database after that bench;
 * its longest table 80 ms alone). PostgreSQL proper has its own daemon; this does nothing there.
 */
export async function startEmbeddedMaintenance(
  db: Db,
  log: MaintenanceLog,
  options: MaintenanceOptions = {},
): Promise<() => Promise<void>> {
  if (db.kind !== "pglite" || db.writesByTable === undefined) return async () => {};
  const writesByTable = db.writesByTable.bind(db);
  await db.exec("ANALYZE"); // fresh statistics before the first request is planned
  const checkEvery = options.checkEveryMs ?? 1_000;
  const thresholdCheckEvery = options.thresholdCheckEveryMs ?? 5_000;
  const analyzeBase = options.analyzeBaseWrites ?? 50;
  const analyzeAtMost = options.analyzeAtMostEveryMs ?? 60_000;
  const vacuumEvery = options.vacuumEveryMs ?? 3_600_000;

  /** each table's write count and time when last analyzed */
  const analyzed = new Map<string, { writes: number; time: number }>();
  const startedAt = Date.now();
  for (const [table, writes] of writesByTable()) analyzed.set(table, { writes, time: startedAt });
  /** each table's rows when last analyzed, as the last check read them */
  const analyzedRows = new Map<string, number>();
  let thresholdCheckedAt = startedAt;
  let vacuumedAt = startedAt;
  /** all writes counted when the last VACUUM pass began */
  let writesAtVacuum = totalOf(writesByTable());
  let running = false;
  let stopped = false;
  /** the check under way, which stopping waits for: it must not run statements on a closed database */
  let checking: Promise<void> = Promise.resolve();

  /** the writes to `table` since its last ANALYZE, of `count` in all */
  const writtenSinceAnalysis = (table: string, count: number) => count - (analyzed.get(table)?.writes ?? 0);
  /** a table of `rows` rows when last analyzed has doubled since (a table analyzed empty: the base's writes) */
  const hasDoubled = (written: number, rows: number) => written >= Math.max(analyzeBase, rows);

  /**
   * The tables among those written since their last ANALYZE (with their write counts) that are due: doubled
   * since, or (`threshold`) as autovacuum judges it
   */
  const dueTables = async (
    changed: [string, number][],
    now: number,
    threshold: boolean,
  ): Promise<[string, number][]> => {
    const rows = await db.query<{ name: string; reltuples: number }>(
      `SELECT t.name, greatest(c.reltuples, 0)::float8 AS reltuples
       FROM json_array_elements_text($1::json) AS t (name) JOIN pg_class c ON c.oid = to_regclass(t.name)`,
      [JSON.stringify(changed.map(([table]) => table))],
    );
    // a name that is no table (the counter reads names out of statements) is asked again only by the
    // threshold's checks
    for (const [table] of changed) analyzedRows.set(table, Number.POSITIVE_INFINITY);
    for (const row of rows) analyzedRows.set(row.name, row.reltuples);
    return changed.filter(([table, count]) => {
      const tuples = analyzedRows.get(table) ?? Number.POSITIVE_INFINITY;
      if (tuples === Number.POSITIVE_INFINITY) return false;
      const written = writtenSinceAnalysis(table, count);
      if (hasDoubled(written, tuples)) return true;
      const analyzedAt = analyzed.get(table)?.time ?? startedAt;
      return threshold && (written >= analyzeBase + 0.1 * tuples || now - analyzedAt >= analyzeAtMost);
    });
  };

  const tick = async () => {
    running = true;
    try {
      const now = Date.now();
      const writes = writesByTable();
      const total = totalOf(writes);
      if (now - vacuumedAt >= vacuumEvery && total > writesAtVacuum) {
        writesAtVacuum = total;
        vacuumedAt = now;
        const started = performance.now();
        const pass = await vacuumEachTable(db, () => stopped);
        log.info({ ms: Math.round(performance.now() - started), ...pass }, "embedded database vacuumed");
        return;
      }
      const changed = [...writes].filter(([table, count]) => writtenSinceAnalysis(table, count) > 0);
      const threshold = now - thresholdCheckedAt >= thresholdCheckEvery;
      // between the threshold's checks, only the tables that may have doubled ask the database anything:
      // tables analyzed small and growing fast (a new database) get plans for their size within a second
      const candidates = threshold
        ? changed
        : changed.filter(([table, count]) => {
            const rows = analyzedRows.get(table);
            return rows === undefined || hasDoubled(writtenSinceAnalysis(table, count), rows);
          });
      if (threshold) thresholdCheckedAt = now;
      if (candidates.length === 0) return;
      const due = await dueTables(candidates, now, threshold);
      if (due.length === 0) return;
      // one table per statement: the session is free between them, so requests wait one table's ANALYZE
      // (tens of ms) and not all of them (over 100 ms under the prior-authorization bench). The names come
      // from the driver's own statement texts and were just resolved by to_regclass.
      for (const [table, count] of due) {
        if (stopped) break;
        await db.exec(
          `SET default_statistics_target = ${SAMPLE_TARGET}; ANALYZE ${table}; RESET default_statistics_target`,
        );
        analyzed.set(table, { writes: count, time: now });
        // read again at the next check that asks
        analyzedRows.delete(table);
      }
    } catch (error) {
      log.error({ err: error }, "embedded database maintenance failed");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => {
    if (!running) checking = tick();
  }, checkEvery);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await checking;
  };
}
