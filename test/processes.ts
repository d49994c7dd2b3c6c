import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { TEST_ENV } from "./helpers.js";

/** `mizan` and its commands as real processes, for the tests that need the whole program */

export const CLI = [process.execPath, "--import", "tsx", "src/cli.ts"];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface Served {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** starts `mizan <command>` with the test environment, collecting what it prints */
export function spawnMizan(command: string, env: Record<string, string>, args: string[] = []): Served {
  const child = spawn(CLI[0] as string, [...CLI.slice(1), command, ...args], {
    env: { ...process.env, ...TEST_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * runs `mizan serve` as a real process and waits until it answers /healthz (a new embedded database's
 * initdb alone takes some 12 s on 2 cores, more while other test files run)
 */
export async function serve(env: Record<string, string>, port: number): Promise<Served> {
  const served = spawnMizan("serve", { ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" });
  const { child } = served;
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return served;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`mizan serve did not come up:\n${served.output()}`);
}
