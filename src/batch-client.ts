import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * `mizan batch submit FILE [--wait]`: a client of the batch claims service, as an insurer's script would
 * be. It asks for a token with the client credentials, keeps it (in a file) until a minute before it
 * expires, asks again then, and retries a request once when the service answers 401.
 */

export interface ClientSettings {
  /** {auth_url}, also the base of {claims_base_url} = <url>/v1 */
  url: string;
  clientId: string;
  clientSecret: string;
  /** where the token is kept between runs */
  tokenCache: string;
  out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** seconds between two looks at a batch's progress */
  pollSeconds?: number;
}

interface CachedToken {
  access_token: string;
  expires_at: number;
}

/** the default token file, one per service and client */
export function defaultTokenCache(url: string, clientId: string): string {
  const key = createHash("sha256").update(`${url}\n${clientId}`).digest("hex").slice(0, 16);
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "mizan", `token-${key}.json`);
}

export class ClientError extends Error {}

function createClient(settings: ClientSettings) {
  let token: CachedToken | undefined;

  async function fresh(): Promise<string> {
    const res = await fetch(`${settings.url}/v1/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
      }),
    });
    const body = (await res.json()) as {
      access_token?: string;
      expires_in?: number;
      error_description?: string;
    };
    if (!res.ok || body.access_token === undefined)
      throw new ClientError(`the token service refused the client: ${body.error_description ?? res.status}`);
    token = { access_token: body.access_token, expires_at: Date.now() + (body.expires_in ?? 3600) * 1000 };
    await mkdir(dirname(settings.tokenCache), { recursive: true });
    await writeFile(settings.tokenCache, JSON.stringify(token), { mode: 0o600 });
    return token.access_token;
  }

  /** the kept token while it has more than a minute left, else a new one */
  async function current(): Promise<string> {
    if (token === undefined) {
      try {
        token = JSON.parse(await readFile(settings.tokenCache, "utf8")) as CachedToken;
      } catch {
        token = undefined;
      }
    }
    if (token !== undefined && token.expires_at - Date.now() > 60_000) return token.access_token;
    return fresh();
  }

  /** a request with the token; on 401, once more with a new token */
  async function call(path: string, init: () => RequestInit): Promise<Response> {
    // each attempt builds its request once (an upload's body is a stream that can be read only once)
    const attempt = async (bearer: string) => {
      const request = init();
      return fetch(`${settings.url}/v1${path}`, {
        ...request,
        headers: { ...(request.headers as Record<string, string>), authorization: `Bearer ${bearer}` },
      });
    };
    const first = await attempt(await current());
    if (first.status !== 401) return first;
    await first.body?.cancel();
    return attempt(await fresh());
  }

  return { call };
}

function bar(percent: number, width: number): string {
  const filled = Math.round((percent / 100) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)}%`;
}

/** submits FILE (JSON, or gzip when it ends in .gz) and, with `wait`, follows the batch until it ends */
export async function submitBatchFile(
  file: string,
  options: { wait: boolean },
  settings: ClientSettings,
): Promise<number> {
  const client = createClient(settings);
  const size = (await stat(file)).size;
  const gzip = file.endsWith(".gz");
  const say = (line: string) => settings.out.write(`${line}\n`);
  const upload = await client.call("/claims/batch/upload", () => ({
    method: "POST",
    headers: { "content-type": "application/json", ...(gzip ? { "content-encoding": "gzip" } : {}) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: "half",
  }));
  const answer = (await upload.json()) as Record<string, unknown> & {
    error?: { message: string; details?: { field: string; reason: string }[] };
  };
  if (upload.status === 400 && answer.error !== undefined) {
    say(`refused: ${answer.error.message}`);
    for (const detail of answer.error.details?.slice(0, 20) ?? []) say(`  ${detail.field} ${detail.reason}`);
    return 1;
  }
  if (upload.status !== 202) {
    say(`refused (${upload.status}): ${answer.error?.message ?? JSON.stringify(answer)}`);
    return 1;
  }
  const batchId = answer.batch_id as string;
  say(
    `accepted: batch ${batchId} (${answer.batch_reference_id}), ${answer.total_claims} claims, ${answer.total_items} items, ${size} bytes`,
  );
  if (!options.wait) return 0;
  let last = "";
  for (;;) {
    await sleep((settings.pollSeconds ?? 1) * 1000);
    const res = await client.call(`/claims/batch/${batchId}`, () => ({ method: "GET" }));
    const status = (await res.json()) as {
      status: string;
      processing_progress: number;
      summary: Record<string, number> | null;
      error: string | null;
    };
    const percent = status.status === "completed" ? 100 : status.processing_progress;
    if (settings.out.isTTY) settings.out.write(`\r${status.status.padEnd(11)} ${bar(percent, 30)}`);
    else if (`${status.status} ${percent}` !== last) say(`${status.status} ${percent}%`);
    last = `${status.status} ${percent}`;
    if (status.status === "completed") {
      if (settings.out.isTTY) settings.out.write("\n");
      const summary = status.summary ?? {};
      say(
        `completed: ${summary.approved} approved, ${summary.flagged} flagged, ${summary.rejected} rejected claims, ` +
          `${summary.FWA_cases} FWA cases`,
      );
      say(`results: ${settings.url}/v1/claims/batch/${batchId}/results`);
      return 0;
    }
    if (status.status === "failed") {
      if (settings.out.isTTY) settings.out.write("\n");
      say(`failed: ${status.error}`);
      return 1;
    }
  }
}
