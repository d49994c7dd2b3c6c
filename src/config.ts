import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { type AllowedRanges, parseAllowedRanges } from "./platform/events/address-ranges.js";

export type TenantMode = "standard" | "lightweight";
export const TENANT_MODES: readonly TenantMode[] = ["standard", "lightweight"];
export const TENANT_NAME_PATTERN = /^[a-z0-9-]{1,63}$/;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** postgres://… selects PostgreSQL; undefined selects embedded PGlite in dataDir */
  databaseUrl: string | undefined;
  dataDir: string;
  bootstrap: {
    tenant: string;
    mode: TenantMode;
    apiKey: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
  };
  adminToken: string | undefined;
  workers: number;
  publicUrl: string;
  webhooks: WebhookSettings;
  batches: BatchSettings;
  fwaLearning: FwaLearningSettings;
  tls: { cert: string; key: string } | undefined;
  /** requests per minute per credential; 0 = off */
  rateLimit: number;
  /** the proxies whose X-Forwarded-For is believed (Fastify's trustProxy): addresses and CIDR ranges */
  trustProxy: string[] | false;
  logLevel: LogLevel;
  /** whether GET /metrics is served */
  metrics: boolean;
  /** the schema of the job queue's tables: deployments (or test runs) sharing one database keep their jobs apart */
  jobsSchema: string;
  /** MIZAN_DEMO=1: `serve` fills the bootstrap tenant with the demo data at start (docs/operator-contract.md section 14) */
  demo: boolean;
}

/** how webhook deliveries are made and retried (docs/operator-contract.md section 7) */
export interface WebhookSettings {
  /**
   * the non-public ranges targets may be in (all others, and every name resolving into them, are refused
   * at registration and at each connection); empty by default
   */
  allowPrivate: AllowedRanges;
  /** no complete answer within this many milliseconds is a failed attempt */
  timeoutMs: number;
  /** the first retry's delay; each later one doubles it (capped at 6 hours), all with jitter */
  firstRetryMs: number;
  /** a delivery is retried until this many seconds have passed since its first attempt, then given up */
  retryWindowSeconds: number;
  /** events and settled deliveries are kept this many days, then purged */
  retentionDays: number;
}

/** the batch claims service's limits */
export interface BatchSettings {
  /** an upload's body (as sent, compressed or not) may not exceed this many bytes */
  maxUploadBytes: number;
  /** nor its JSON, once decompressed (the absolute guard against gzip bombs) */
  maxJsonBytes: number;
  /**
   * past INFLATE_RATIO_FLOOR_BYTES of JSON, the JSON may not exceed this many times the bytes received:
   * a bomb (about 1,000:1) is refused after its first megabytes, a real batch (about 10:1) passes
   */
  maxInflateRatio: number;
  /** one claim's JSON may not exceed this many bytes: an upload holds a few chunks and one claim beyond them */
  maxClaimBytes: number;
  /** threads that parse and check an upload's claims beside its stream, shared by the node's uploads (0: none) */
  checkThreads: number;
  /**
   * a batch of at least this many claims writes its result pages in a thread of its own, beside the
   * rankings; a smaller one on the analysis's thread, where the thread's start would cost more (0: every batch)
   */
  resultsThreadClaims: number;
  /**
   * a batch of at least this many claims runs some of its detectors in a thread of their own, beside the
   * others, over its columns in shared memory (0: every batch)
   */
  detectorsThreadClaims: number;
  /** results stay available this many days after a batch completes, then are purged */
  resultsDays: number;
  /**
   * where an upload spools its accepted claims for the analysis: `file` in spoolDir (one node, or a volume
   * every node shares), `database` in the database itself (any worker reads it, no shared volume)
   */
  spool: SpoolKind;
  /** the `file` spool's directory: every API node and worker must see the same one */
  spoolDir: string;
}

export type SpoolKind = "file" | "database";
export const SPOOL_KINDS: readonly SpoolKind[] = ["file", "database"];

/** how the tenants' FWA models are trained from outcomes (docs/operator-contract.md section 10) */
export interface FwaLearningSettings {
  /** a training still running after this many milliseconds is stopped and reported failed */
  trainingTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads docs/operator-contract.md section 2 from the environment. Every problem is collected so an operator fixes
 * them in one go instead of one restart per typo.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(", ")} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const secret = (name: string, minLength: number): string | undefined => {
    const raw = read(name);
    if (raw !== undefined && raw.length < minLength) {
      problems.push(`${name} must be at least ${minLength} characters long`);
    }
    return raw;
  };

  const port = integer("PORT", 8080, 1, 65535);
  const host = read("HOST") ?? "0.0.0.0";

  const databaseUrl = read("DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with "postgres://" or "postgresql://"');
  }

  const tenant = read("MIZAN_TENANT") ?? "demo";
  if (!TENANT_NAME_PATTERN.test(tenant)) {
    problems.push(`MIZAN_TENANT must be 1-63 characters of a-z, 0-9 and - (got "${tenant}")`);
  }
  const clientId = read("MIZAN_CLIENT_ID");
  const clientSecret = secret("MIZAN_CLIENT_SECRET", 16);
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    problems.push("MIZAN_CLIENT_ID and MIZAN_CLIENT_SECRET must be set together");
  }

  const certFile = read("MIZAN_TLS_CERT");
  const keyFile = read("MIZAN_TLS_KEY");
  let tls: Config["tls"];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    problems.push("MIZAN_TLS_CERT and MIZAN_TLS_KEY must be set together");
  } else if (certFile !== undefined && keyFile !== undefined) {
    tls = {
      cert: readPem("MIZAN_TLS_CERT", certFile, problems),
      key: readPem("MIZAN_TLS_KEY", keyFile, problems),
    };
  }

  const allowPrivate = parseAllowedRanges(read("MIZAN_WEBHOOK_ALLOW_PRIVATE") ?? "");
  if (allowPrivate.invalid.length > 0)
    problems.push(
      `MIZAN_WEBHOOK_ALLOW_PRIVATE must be comma-separated CIDR ranges such as 10.0.0.0/8,fd00::/8, or * (got "${allowPrivate.invalid.join(",")}")`,
    );
  // removed: non-public targets are now refused unless allowed, so "0" (allow them) would be silently lost
  if (read("MIZAN_WEBHOOK_DENY_PRIVATE") === "0")
    problems.push(
      "MIZAN_WEBHOOK_DENY_PRIVATE was removed: non-public webhook targets are refused unless MIZAN_WEBHOOK_ALLOW_PRIVATE names their ranges",
    );

  const publicUrl = read("MIZAN_PUBLIC_URL") ?? `http://localhost:${port}`;
  if (!/^https?:\/\/[^\s]+$/.test(publicUrl)) {
    problems.push(`MIZAN_PUBLIC_URL must be an http(s) URL (got "${publicUrl}")`);
  }

  const dataDir = resolve(read("MIZAN_DATA_DIR") ?? "./data");
  const config: Config = {
    port,
    host,
    databaseUrl,
    dataDir,
    bootstrap: {
      tenant,
      mode: oneOf("MIZAN_MODE", TENANT_MODES, "standard"),
      apiKey: secret("MIZAN_API_KEY", 16),
      clientId,
      clientSecret,
    },
    adminToken: secret("MIZAN_ADMIN_TOKEN", 16),
    workers: integer("MIZAN_WORKERS", 1, 0, 64),
    publicUrl: publicUrl.replace(/\/+$/, ""),
    webhooks: {
      allowPrivate: allowPrivate.ranges,
      timeoutMs: integer("MIZAN_WEBHOOK_TIMEOUT_MS", 10_000, 100, 120_000),
      firstRetryMs: integer("MIZAN_WEBHOOK_RETRY_FIRST_MS", 5_000, 10, 3_600_000),
      retryWindowSeconds: integer("MIZAN_WEBHOOK_RETRY_WINDOW_S", 86_400, 1, 30 * 86_400),
      retentionDays: integer("MIZAN_EVENT_RETENTION_DAYS", 30, 1, 3_650),
    },
    batches: {
      maxUploadBytes: integer("MIZAN_BATCH_MAX_BYTES", 1024 ** 3, 1024, 16 * 1024 ** 3),
      maxJsonBytes: integer("MIZAN_BATCH_MAX_JSON_BYTES", 4 * 1024 ** 3, 1024, 64 * 1024 ** 3),
      maxInflateRatio: integer("MIZAN_BATCH_MAX_INFLATE_RATIO", 100, 2, 100_000),
      maxClaimBytes: integer("MIZAN_BATCH_MAX_CLAIM_BYTES", 1024 ** 2, 1024, 64 * 1024 ** 2),
      checkThreads: integer("MIZAN_UPLOAD_CHECK_THREADS", Math.min(availableParallelism(), 8), 0, 64),
      resultsThreadClaims: integer("MIZAN_BATCH_RESULTS_THREAD_CLAIMS", 20_000, 0, 1_000_000_000),
      detectorsThreadClaims: integer("MIZAN_BATCH_DETECTORS_THREAD_CLAIMS", 20_000, 0, 1_000_000_000),
      resultsDays: integer("MIZAN_BATCH_RESULTS_DAYS", 7, 1, 365),
      spool: oneOf("MIZAN_BATCH_SPOOL", SPOOL_KINDS, "file"),
      spoolDir: resolve(read("MIZAN_SPOOL_DIR") ?? join(dataDir, "spool")),
    },
    fwaLearning: {
      trainingTimeoutMs: integer("MIZAN_MODEL_TRAINING_TIMEOUT_MS", 300_000, 1, 3_600_000),
    },
    tls,
    rateLimit: integer("MIZAN_RATE_LIMIT", 120_000, 0, 100_000_000),
    trustProxy: trustProxyOf(read("MIZAN_TRUST_PROXY"), problems),
    logLevel: oneOf("LOG_LEVEL", LOG_LEVELS, "info"),
    metrics: oneOf("MIZAN_METRICS", ["0", "1"] as const, "1") === "1",
    jobsSchema: read("MIZAN_JOBS_SCHEMA") ?? "pgboss",
    demo: oneOf("MIZAN_DEMO", ["0", "1"] as const, "0") === "1",
  };
  // the demo's decisions rest on reference data, which only standard mode keeps
  if (config.demo && config.bootstrap.mode !== "standard")
    problems.push("MIZAN_DEMO=1 needs MIZAN_MODE=standard (the demo's data is standard mode's)");
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(config.jobsSchema))
    problems.push(`MIZAN_JOBS_SCHEMA must be a lower-case SQL name (got "${config.jobsSchema}")`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readPem(name: string, file: string, problems: string[]): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    problems.push(`${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    return "";
  }
}

/**
 * MIZAN_TRUST_PROXY: behind a reverse proxy the client's address (sign-in limits, logs) is the one the
 * proxy forwards, believed only from these proxies: comma-separated addresses and CIDR ranges
 * (10.0.0.0/8,127.0.0.1). Unset: nobody is believed.
 */
function trustProxyOf(raw: string | undefined, problems: string[]): string[] | false {
  if (raw === undefined) return false;
  const entries = raw.split(",").map((entry) => entry.trim());
  const address = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+)(\/\d{1,3})?$/i;
  if (entries.every((entry) => address.test(entry))) return entries;
  problems.push(`MIZAN_TRUST_PROXY must be comma-separated addresses or CIDR ranges (got "${raw}")`);
  return false;
}
