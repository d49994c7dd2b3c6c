#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { ClientError, defaultTokenCache, submitBatchFile } from "./batch-client.js";
import { ConfigError, loadConfig, TENANT_MODES, TENANT_NAME_PATTERN, type TenantMode } from "./config.js";
import { demoCommand } from "./demo/command.js";
import { CODE_SYSTEMS, type CodeSystem } from "./modules/code-sets/schemas.js";
import { importCodeSet } from "./modules/code-sets/service.js";
import { tenantRepo } from "./modules/tenants/repo.js";
import { createTenant } from "./modules/tenants/service.js";
import type { Db } from "./platform/db/db.js";
import { migrate } from "./platform/db/migrate.js";
import { openDatabase } from "./platform/db/open.js";
import { keepShortLivedObjectsYoung } from "./platform/heap.js";
import { AppError } from "./platform/http/errors.js";
import { parseCodeSetText } from "./reference/code-set-file.js";
import { startServer, trapSignals } from "./server.js";
import { startWorker } from "./worker.js";

const USAGE = `Usage: mizan <command>

  serve                                           API and background workers in one process
  worker                                          background workers only (imports, deliveries, batch analysis)
  migrate                                         apply pending database migrations and exit
  tenant create NAME [--mode standard|lightweight] create a tenant; prints its access-key and OAuth client
  codes import --tenant NAME --system icd10 FILE [--replace]
                                                  load a code set (TSV or CSV: code, description)
  batch submit FILE [--wait]                      upload a claims batch (JSON, or .gz) to the service at
                                                  MIZAN_PUBLIC_URL with MIZAN_CLIENT_ID and MIZAN_CLIENT_SECRET;
                                                  --wait follows it until it completes
  demo [--tenant NAME]                            fill a tenant (default MIZAN_TENANT) with demo data: reference
                                                  data, decided prior authorizations, an analysed claims batch

The database is the one DATABASE_URL (PostgreSQL) or MIZAN_DATA_DIR (embedded PGlite) selects.`;

class UsageError extends Error {}

/** opens the configured database, brings its schema up to date, runs `work`, closes */
async function withDatabase<T>(work: (db: Db, appliedMigrations: number[]) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    return await work(db, await migrate(db));
  } finally {
    await db.close();
  }
}

async function tenantCreate(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { mode: { type: "string" } },
    allowPositionals: true,
  });
  const name = positionals[0];
  if (!name || positionals.length > 1) throw new UsageError("tenant create takes exactly one NAME");
  const mode = (values.mode ?? "standard") as TenantMode;
  if (!TENANT_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${TENANT_MODES.join(", ")}`);
  if (!/^[a-z0-9-]{1,63}$/.test(name)) throw new UsageError("NAME must be 1-63 characters of a-z, 0-9 and -");
  const created = await withDatabase((db) =>
    createTenant(db, { tenantId: undefined, actor: "cli", requestId: undefined }, { name, mode }),
  );
  process.stdout.write(
    `tenant:        ${created.tenant.name} (${created.tenant.mode})\n` +
      `access-key:    ${created.apiKey}\nclient_id:     ${created.clientId}\nclient_secret: ${created.clientSecret}\n` +
      "The secrets are shown once; only their hashes are stored.\n",
  );
}

async function codesImport(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { tenant: { type: "string" }, system: { type: "string" }, replace: { type: "boolean" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!values.tenant || !values.system || !file)
    throw new UsageError("codes import needs --tenant, --system and FILE");
  const system = values.system as CodeSystem;
  if (!CODE_SYSTEMS.includes(system))
    throw new UsageError(`--system must be one of ${CODE_SYSTEMS.join(", ")}`);
  const parsed = parseCodeSetText(await readFile(file, "utf8"));
  const result = await withDatabase(async (db) => {
    const tenant = await tenantRepo.findByName(db, values.tenant as string);
    if (tenant === undefined) throw new UsageError(`tenant ${values.tenant} does not exist`);
    const actor = { tenantId: tenant.id, actor: "cli", requestId: undefined };
    return importCodeSet(db, actor, system, parsed.entries, {
      mode: values.replace ? "replace" : "merge",
      where: (index) => `${file}:${parsed.lines[index]}`,
    });
  });
  process.stdout.write(
    `imported ${result.imported} ${result.system} codes into ${values.tenant} (set now holds ${result.total})\n`,
  );
}

async function batchSubmit(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { wait: { type: "boolean" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("batch submit takes exactly one FILE");
  const config = loadConfig();
  const { clientId, clientSecret } = config.bootstrap;
  if (clientId === undefined || clientSecret === undefined)
    throw new UsageError(
      "batch submit needs MIZAN_CLIENT_ID and MIZAN_CLIENT_SECRET (the tenant's OAuth client)",
    );
  const url = config.publicUrl;
  process.exitCode = await submitBatchFile(
    file,
    { wait: values.wait === true },
    {
      url,
      clientId,
      clientSecret,
      tokenCache: process.env.MIZAN_TOKEN_CACHE || defaultTokenCache(url, clientId),
      out: process.stdout,
    },
  );
}

async function demo(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { tenant: { type: "string" } },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError("demo takes no arguments besides --tenant");
  const config = loadConfig();
  const name = values.tenant ?? config.bootstrap.tenant;
  if (!TENANT_NAME_PATTERN.test(name)) throw new UsageError("NAME must be 1-63 characters of a-z, 0-9 and -");
  process.stdout.write(await demoCommand(config, name));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve": {
      keepShortLivedObjectsYoung();
      const attach = trapSignals();
      const server = await startServer(loadConfig());
      attach(server, server.app.log);
      return;
    }
    case "worker": {
      keepShortLivedObjectsYoung();
      const attach = trapSignals();
      const worker = await startWorker(loadConfig());
      attach(worker, worker.log);
      return;
    }
    case "migrate": {
      const applied = await withDatabase(async (_db, appliedMigrations) => appliedMigrations);
      process.stdout.write(
        applied.length ? `applied migrations ${applied.join(", ")}\n` : "migrations up to date\n",
      );
      return;
    }
    case "tenant":
      if (rest[0] !== "create") throw new UsageError("unknown tenant command");
      return tenantCreate(rest.slice(1));
    case "codes":
      if (rest[0] !== "import") throw new UsageError("unknown codes command");
      return codesImport(rest.slice(1));
    case "batch":
      if (rest[0] !== "submit") throw new UsageError("unknown batch command");
      return batchSubmit(rest.slice(1));
    case "demo":
      return demo(rest);
    case undefined:
    case "help":
    case "--help":
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`mizan: ${error.message}\n\n${USAGE}\n`);
  else if (error instanceof ClientError) process.stderr.write(`mizan: ${error.message}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`mizan: ${error.message}\n`);
  else if (error instanceof AppError)
    process.stderr.write(`mizan: ${error.message}\n${error.details.map((d) => `  ${d}\n`).join("")}`);
  else
    process.stderr.write(
      `mizan: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  process.exit(error instanceof UsageError || error instanceof ConfigError ? 2 : 1);
});
