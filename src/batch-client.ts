import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import {
  type BatchStatus,
  createMizanClient,
  MizanApiError,
  MizanAuthError,
  type StoredToken,
  type TokenStore,
} from "@mizan/client";

/**
 * `mizan batch submit FILE [--wait]`: a client of the batch claims service, as an insurer's script would
 * be, built on @mizan/client. The library asks for a token with the client credentials, keeps it (here in
 * a file) until a minute before it expires, asks again then, and retries a request once on a 401.
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

/** the library's errors are the client's: the CLI prints their message alone, without a stack */
export { MizanError as ClientError } from "@mizan/client";

/** the default token file, one per service and client */
export function defaultTokenCache(url: string, clientId: string): string {
  const key = createHash("sha256").update(`${url}\n${clientId}`).digest("hex").slice(0, 16);
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "mizan", `token-${key}.json`);
}

/** the token kept in a file only its owner reads; an unreadable file is no token */
function fileTokenStore(path: string): TokenStore {
  return {
    async load() {
      try {
        const token = JSON.parse(await readFile(path, "utf8")) as Partial<StoredToken>;
        if (typeof token.access_token === "string" && typeof token.expires_at === "number")
          return { access_token: token.access_token, expires_at: token.expires_at };
      } catch {
        // missing or damaged: a new token is asked for
      }
      return undefined;
    },
    async save(token) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify(token), { mode: 0o600 });
    },
  };
}

function bar(percent: number, width: number): string {
  const filled = Math.round((percent / 100) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)}%`;
}

interface RefusalBody {
  error?: { message: string; details?: { field: string; reason: string }[] };
}

/** submits FILE (JSON, or gzip when it ends in .gz) and, with `wait`, follows the batch until it ends */
export async function submitBatchFile(
  file: string,
  options: { wait: boolean },
  settings: ClientSettings,
): Promise<number> {
  const mizan = createMizanClient({
    baseUrl: settings.url,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    tokenStore: fileTokenStore(settings.tokenCache),
  });
  const size = (await stat(file)).size;
  const say = (line: string) => settings.out.write(`${line}\n`);
  let accepted: Awaited<ReturnType<typeof mizan.uploadBatch>>;
  try {
    accepted = await mizan.uploadBatch(file, { sourceIsGzip: file.endsWith(".gz") });
  } catch (error) {
    if (!(error instanceof MizanApiError) || error instanceof MizanAuthError) throw error;
    const answer = (error.body ?? {}) as RefusalBody;
    if (error.status === 400 && answer.error !== undefined) {
      say(`refused: ${answer.error.message}`);
      for (const detail of answer.error.details?.slice(0, 20) ?? [])
        say(`  ${detail.field} ${detail.reason}`);
    } else say(`refused (${error.status}): ${answer.error?.message ?? JSON.stringify(error.body)}`);
    return 1;
  }
  const batchId = accepted.batch_id;
  say(
    `accepted: batch ${batchId} (${accepted.batch_reference_id}), ${accepted.total_claims} claims, ${accepted.total_items} items, ${size} bytes`,
  );
  if (!options.wait) return 0;
  let last = "";
  const show = (status: BatchStatus) => {
    const percent = status.status === "completed" ? 100 : status.processing_progress;
    if (settings.out.isTTY) settings.out.write(`\r${status.status.padEnd(11)} ${bar(percent, 30)}`);
    else if (`${status.status} ${percent}` !== last) say(`${status.status} ${percent}%`);
    last = `${status.status} ${percent}`;
  };
  const status = await mizan.waitForBatch(batchId, {
    onProgress: show,
    intervalMs: (settings.pollSeconds ?? 1) * 1000,
  });
  if (settings.out.isTTY) settings.out.write("\n");
  if (status.status === "failed") {
    say(`failed: ${status.error}`);
    return 1;
  }
  const summary: Partial<NonNullable<BatchStatus["summary"]>> = status.summary ?? {};
  say(
    `completed: ${summary.approved} approved, ${summary.flagged} flagged, ${summary.rejected} rejected claims, ` +
      `${summary.FWA_cases} FWA cases`,
  );
  say(`results: ${settings.url}/v1/claims/batch/${batchId}/results`);
  return 0;
}
