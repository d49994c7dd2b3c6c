import { createRequire } from "node:module";

/**
 * PostgreSQL asks a file for its size (lseek to its end) each time it counts a relation's blocks, and
 * Emscripten's NODEFS, under PGlite, answers every such seek with fs.fstatSync: 12 % of the embedded
 * database's thread under the prior-authorization bench. This thread's `fs` remembers the answer per
 * descriptor until the file is written or truncated through any descriptor (forgetting every descriptor
 * of that file), closed, or anything is renamed or removed; NODEFS changes files only so (synchronously,
 * and in this thread only: the thread owns the data directory).
 */
export function rememberFileStats(): void {
  const fs = createRequire(import.meta.url)("node:fs") as Record<string, (...args: unknown[]) => unknown>;
  type Stats = { ino: number };
  const remembered = new Map<unknown, Stats>();
  const fstatSync = fs.fstatSync as (fd: unknown, options?: unknown) => Stats;
  fs.fstatSync = (fd: unknown, options?: unknown) => {
    if (options !== undefined) return fstatSync(fd, options);
    let stats = remembered.get(fd);
    if (stats === undefined) {
      stats = fstatSync(fd);
      remembered.set(fd, stats);
    }
    return stats;
  };
  /** forgets every descriptor of the file `fd` is open on */
  const forgetFileOf = (fd: unknown) => {
    const ino = (remembered.get(fd) ?? fstatSync(fd)).ino;
    for (const [other, stats] of remembered) if (stats.ino === ino) remembered.delete(other);
  };
  const wrap = (name: string, before: (...args: unknown[]) => void) => {
    const original = fs[name];
    if (typeof original !== "function") return;
    fs[name] = (...args: unknown[]) => {
      before(...args);
      return original(...args);
    };
  };
  for (const name of ["writeSync", "writevSync", "ftruncateSync", "fsyncSync", "futimesSync", "fchmodSync"])
    wrap(name, (fd) => forgetFileOf(fd));
  wrap("closeSync", (fd) => remembered.delete(fd));
  // by path: which descriptors they touch is not known, so all are forgotten
  for (const name of [
    "openSync",
    "truncateSync",
    "renameSync",
    "unlinkSync",
    "rmSync",
    "rmdirSync",
    "writeFileSync",
    "appendFileSync",
    "copyFileSync",
    "linkSync",
    "symlinkSync",
    "utimesSync",
    "chmodSync",
  ])
    wrap(name, () => remembered.clear());
}
