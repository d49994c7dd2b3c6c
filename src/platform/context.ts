import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { TenantMode } from "../config.js";
import type { TenantActor } from "./audit/audit.js";
import type { Db } from "./db/db.js";
import type { JobQueue } from "./jobs/queue.js";

/**
 * What a domain function needs of the request that calls it: the tenant and its mode, who acts, the
 * request id, the database, the job queue, the clock and the request's logger. Routes build it; tests call
 * the domain functions with one of their own.
 */
export interface RequestContext extends TenantActor {
  mode: TenantMode;
  db: Db;
  jobs: JobQueue;
  /** the time a change is stamped and decided with */
  now(): Date;
  log: FastifyBaseLogger;
}

/** the context of an authenticated tenant request */
export function requestContextOf(request: FastifyRequest, deps: { db: Db; jobs: JobQueue }): RequestContext {
  const { tenantId, actor, requestId } = request.actor;
  // named, not spread: V8 builds a literal that follows a spread property by property at run time
  return {
    tenantId,
    actor,
    requestId,
    mode: request.tenant.mode,
    db: deps.db,
    jobs: deps.jobs,
    now: () => new Date(),
    log: request.log,
  };
}
