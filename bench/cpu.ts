/**
 * CPU time spent by the server and, on PostgreSQL, by the database's processes, from /proc (Linux; undefined
 * elsewhere). A figure's CPU beside its wall time says what stands in the way: work that no scheduling over
 * the machine's cores can hide, or cores left idle.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { DATABASE_KIND } from "./database.js";

export const CORES = availableParallelism();

/** clock ticks per second of /proc's times (getconf CLK_TCK; 100 on every common Linux) */
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** utime + stime (+ cutime + cstime: the children it reaped, as the postmaster its backends) of one process */
function processTicks(
  pid: number | string,
  withChildren: boolean,
): { name: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the name is in parentheses and may hold spaces; the fields after it are space-separated
    const close = stat.lastIndexOf(")");
    const name = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    // fields[0] is the state (field 3 of proc(5)): utime is field 14, so fields[11]
    const own = Number(fields[11]) + Number(fields[12]);
    const children = withChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return { name, ticks: own + children };
  } catch {
    return undefined;
  }
}

/** the local PostgreSQL's processes, the postmaster with the backends it has reaped */
function postgresTicks(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const process = processTicks(entry, true);
    if (process?.name === "postgres") ticks += process.ticks;
  }
  return ticks;
}

/** CPU seconds so far of the server (every thread) and of the database beside it; undefined off Linux */
export function cpuSeconds(serverPid: number | undefined): number | undefined {
  if (serverPid === undefined) return undefined;
  const server = processTicks(serverPid, false);
  if (server === undefined) return undefined;
  const database = DATABASE_KIND === "postgres" ? postgresTicks() : 0;
  return (server.ticks + database) / TICKS;
}

/** the CPU seconds spent between two readings (undefined when either is) */
export const cpuSpent = (before: number | undefined, after: number | undefined): number | undefined =>
  before === undefined || after === undefined ? undefined : after - before;

/** `work`'s result and the CPU seconds spent while it ran (undefined where they cannot be read) */
export async function cpuOf<T>(
  pid: number | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: number | undefined }> {
  const before = cpuSeconds(pid);
  const result = await work();
  return { result, cpu: cpuSpent(before, cpuSeconds(pid)) };
}
