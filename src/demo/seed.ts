import type { FastifyBaseLogger } from "fastify";
import type { BatchSettings } from "../config.js";
import type { BatchRow } from "../modules/claims-batch/repo.js";
import type { Tenant } from "../modules/tenants/repo.js";
import { createTenant, findTenant, type TenantCredentials } from "../modules/tenants/service.js";
import type { Db } from "../platform/db/db.js";
import { AppError } from "../platform/http/errors.js";
import type { JobQueue } from "../platform/jobs/queue.js";
import { seedBatch } from "./batch.js";
import { demoMembers } from "./people.js";
import { seedMembers, seedNetworksAndProviders, seedPolicies, seedReviewers } from "./reference.js";
import { seedPriorAuths } from "./requests.js";
import { type Count, Tally } from "./tally.js";

/** The demo tenant (docs/operator-contract.md section 14): what `mizan demo` and MIZAN_DEMO=1 create. */

export interface DemoDeps {
  db: Db;
  jobs: JobQueue;
  batches: BatchSettings;
  log: FastifyBaseLogger;
  /** whether a worker analyses the batch while the seeding waits for it */
  waitForBatch: boolean;
}

export interface DemoReport {
  tenant: Tenant;
  /** the tenant's secrets, when this run created the tenant */
  credentials: TenantCredentials | undefined;
  counts: ReadonlyMap<string, Count>;
  /** reviewer users this run created, with their passwords (shown once) */
  reviewers: { username: string; password: string }[];
  batch: BatchRow;
  /** whether this run wrote anything */
  changed: boolean;
}

/** the named tenant, created (in standard mode) when missing: its secrets are answered only then */
export async function ensureDemoTenant(
  db: Db,
  name: string,
): Promise<{ tenant: Tenant; credentials: TenantCredentials | undefined }> {
  const existing = await findTenant(db, name);
  if (existing !== undefined) return { tenant: existing, credentials: undefined };
  const actor = { tenantId: undefined, actor: "demo", requestId: undefined };
  const credentials = await createTenant(db, actor, { name, mode: "standard" });
  return { tenant: credentials.tenant, credentials };
}

/** fills the tenant with the demo's data; every step finds what a previous run made, so a rerun changes nothing */
export async function seedDemo(
  deps: DemoDeps,
  tenant: Tenant,
  credentials?: TenantCredentials,
): Promise<DemoReport> {
  // lightweight tenants keep no reference data: the demo's decisions need standard mode's
  if (tenant.mode !== "standard")
    throw new AppError(
      "E_BAD_REQUEST_400",
      `tenant ${tenant.name} is in ${tenant.mode} mode; the demo needs standard mode`,
    );
  const { db } = deps;
  const actor = { tenantId: tenant.id, actor: "demo", requestId: undefined };
  const tally = new Tally();
  const members = demoMembers();
  await seedNetworksAndProviders(db, actor, tally);
  await seedPolicies(db, actor, tally);
  await seedMembers(db, actor, tally, members);
  const reviewers = await seedReviewers(db, actor, tally);
  const ctx = { ...actor, mode: tenant.mode, db, jobs: deps.jobs, now: () => new Date(), log: deps.log };
  await seedPriorAuths(ctx, tally, members);
  const batch = await seedBatch(
    { db, jobs: deps.jobs, batches: deps.batches, wait: deps.waitForBatch },
    actor,
    tally,
    members,
  );
  return {
    tenant,
    credentials,
    counts: tally.counts,
    reviewers,
    batch,
    changed: tally.changed || credentials !== undefined,
  };
}

/** what a run created and what to try next, for a terminal */
export function describeDemo(report: DemoReport, publicUrl: string, knownApiKey?: string): string {
  const { tenant, credentials } = report;
  const lines = [`Demo data of tenant "${tenant.name}" (${tenant.mode} mode):`];
  if (credentials !== undefined)
    lines.push(
      "  created the tenant; its secrets are shown once, only their hashes are stored:",
      `    access-key:    ${credentials.apiKey}`,
      `    client_id:     ${credentials.clientId}`,
      `    client_secret: ${credentials.clientSecret}`,
    );
  const width = Math.max(...[...report.counts.keys()].map((kind) => kind.length));
  for (const [kind, count] of report.counts) {
    const there = count.existing > 0 ? ` (${count.existing} already there)` : "";
    lines.push(`  ${kind.padEnd(width)}  ${count.created} created${there}`);
  }
  for (const reviewer of report.reviewers)
    lines.push(`  reviewer ${reviewer.username}, password ${reviewer.password} (shown once)`);
  const { batch } = report;
  const summary = batch.summary
    ? `: ${batch.summary.approved} approved, ${batch.summary.flagged} flagged, ${batch.summary.rejected} rejected`
    : "";
  lines.push(
    `  claims batch ${batch.batch_reference_id} (${batch.total_claims} claims) is ${batch.status}${summary}`,
  );
  if (!report.changed) lines.push("  Everything was already there: nothing changed.");
  const key = credentials?.apiKey ?? knownApiKey ?? "<the tenant's access-key>";
  lines.push(
    "",
    "Try:",
    `  curl -H 'access-key: ${key}' ${publicUrl}/${tenant.name}/v4.0/health/approval-request/get-one/DEMO-HELD`,
    `  the reviewer console: ${publicUrl}/${tenant.name}/console/ (sign in as reviewer or analyst)`,
    `  the API reference:    ${publicUrl}/docs`,
  );
  return `${lines.join("\n")}\n`;
}
