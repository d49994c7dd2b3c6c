/** the server the benchmarks drive: a real `mizan serve` from the built dist/ */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export const API_KEY = "bench-access-key-0123456789";
export const TENANT = "bench";
export const ADMIN_TOKEN = "bench-admin-token-0123456789";

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** always the current source: a stale dist/ would measure yesterday's code */
export function buildOnce(): void {
  const built = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

/** a tenant made through the admin API (its default mode when none is given): its API base and headers */
export async function createTenant(port: number, adminToken: string, name: string, mode?: string) {
  const res = await fetch(`http://127.0.0.1:${port}/admin/v1/tenants`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name, mode }),
  });
  const { api_key } = (await res.json()) as { api_key: string };
  return {
    base: `http://127.0.0.1:${port}/${name}/v4.0/health`,
    headers: { "access-key": api_key, "content-type": "application/json" },
    apiKey: api_key,
  };
}

/** `mizan serve` from dist/ on a data directory, with the bench tenant and credentials; ready when it answers */
export async function startServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  // BENCH_PROFILE=<dir>: CPU profiles of the server's threads, written there when it stops
  const profile = process.env.BENCH_PROFILE;
  const flags = profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`];
  const child = spawn(process.execPath, [...flags, "dist/cli.js", "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      MIZAN_DATA_DIR: dataDir,
      MIZAN_TENANT: TENANT,
      MIZAN_API_KEY: API_KEY,
      MIZAN_ADMIN_TOKEN: ADMIN_TOKEN,
      MIZAN_RATE_LIMIT: "0",
      // the bench's webhook receivers listen on loopback
      MIZAN_WEBHOOK_ALLOW_PRIVATE: "127.0.0.0/8,::1/128",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await untilReady(child, `http://127.0.0.1:${port}/readyz`, "server");
  return child;
}

/** waits up to 30 s for `url` to answer OK; kills the child and throws when it never does */
export async function untilReady(child: ChildProcess, url: string, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`${what} did not start`);
}

/** SIGTERM, then wait for the server to exit (at once when it already has) */
export async function stopServer(server: ChildProcess): Promise<void> {
  server.kill("SIGTERM");
  if (server.exitCode === null) await new Promise((resolve) => server.once("exit", resolve));
}
