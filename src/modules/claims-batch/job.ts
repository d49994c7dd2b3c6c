import type { BatchSettings } from "../../config.js";
import { createColumnarBuilder, rankingColumns, textOf } from "../../engine/fwa/columns/columnar.js";
import { tenantFeaturesOf } from "../../engine/fwa/model/tenant-model.js";
import type { RankedEntities } from "../../engine/fwa/ranking/entity.js";
import { memberRanking } from "../../engine/fwa/ranking/members.js";
import { providerEvidence, rankProviders } from "../../engine/fwa/ranking/providers.js";
import { resultSourceOf } from "../../engine/fwa/result-bytes.js";
import type { BatchDecisions, ColumnarBatchView } from "../../engine/fwa/types.js";
import { recordAudit } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { publicFailure } from "../../platform/jobs/failure.js";
import type { JobContext, JobDefinition } from "../../platform/jobs/queue.js";
import { batchAnalyses, batchAnalysisSeconds } from "../../platform/metrics.js";
import { fwaFlagThreshold } from "../adjudication-settings/repo.js";
import { activeModel, recordProviderFeatures } from "../fwa-learning/service.js";
import { analyzeColumns } from "./detector-runs.js";
import { PagePipeline } from "./page-pipeline.js";
import { type BatchRow, batchRepo, type RankingView, RESULT_PAGE_CLAIMS } from "./repo.js";
import { queuePage, WORKER_STOPPED, writeResultPages } from "./result-writer.js";
import { ANALYSIS_QUEUE, emitForBatch, estimatedCompletion } from "./service.js";
import { readSpool, removeSpool, type SpoolStores, spoolOf } from "./spool/spool.js";

/** share of the work done when each pass ends, for the progress events */
const PASS_ONE_END = 40;
const PASS_TWO_END = 50;

interface AnalysisJobData {
  batchId: string;
  requestId?: string;
}

/**
 * batch.processing_update at least every 10 % of the work or every 5 s, whichever comes first; the
 * batch's processed_claims follows.
 */
function progressReporter(context: JobContext, batch: BatchRow) {
  let lastPercent = 0;
  let lastAt = Date.now();
  const started = Date.now();
  return async (percent: number, claimsProcessed: number) => {
    const now = Date.now();
    // each tenth of the work crossed, or 5 s gone by, is told
    if (Math.floor(percent / 10) <= Math.floor(lastPercent / 10) && now - lastAt < 5_000) return;
    lastPercent = percent;
    lastAt = now;
    const elapsed = now - started;
    const left = (elapsed * (100 - percent)) / percent;
    await context.db.transaction(async (tx) => {
      await batchRepo.progress(tx, batch.id, claimsProcessed, Math.floor(percent));
      await emitForBatch(tx, context.jobs, batch, "batch.processing_update", {
        processing_progress: Math.floor(percent),
        claims_processed: claimsProcessed,
        total_claims: batch.total_claims,
        estimated_completion_time: new Date(now + left).toISOString(),
      });
    });
  };
}

/** a ranking by page of RESULT_PAGE_CLAIMS entities, in its order (the engine's units: halalas) */
async function writeRankings(
  db: Db,
  batchId: string,
  attempt: number,
  view: RankingView,
  ranking: RankedEntities,
): Promise<void> {
  const writes = new PagePipeline();
  for (let from = 0; from < ranking.count; from += RESULT_PAGE_CLAIMS) {
    const rows = ranking.rows(from, from + RESULT_PAGE_CLAIMS);
    const entities = rows.length;
    // the rows as text at once: held by the write until it ended, they outlived the young generation, V8
    // learnt to allocate them in the old one, and a million members' rows stayed there as garbage
    const json = JSON.stringify(rows);
    const page = from / RESULT_PAGE_CLAIMS + 1;
    await queuePage(writes, db, { batchId, attempt, view, page, claims: entities, items: 0 }, json);
  }
  await writes.drain();
}

/**
 * Passes one to three: the spool's parts joined into columns, every item settled, the results' pages
 * started (result-writer.ts). Answers the decisions, the pages being written and the columns the rankings
 * read (columnar.ts, rankingColumns), so that the rest (some 480 MB at ten million items) and what the
 * detectors alone computed are let go first.
 */
async function settleClaims(
  batch: BatchRow,
  attempt: number,
  stores: SpoolStores,
  context: JobContext,
  settings: BatchSettings,
  report: ReturnType<typeof progressReporter>,
) {
  const { db } = context;
  // the detectors split over two threads read the columns in shared memory
  const detectorsInThread = batch.total_claims >= settings.detectorsThreadClaims;
  const builder = createColumnarBuilder({
    claims: batch.total_claims,
    items: batch.total_items,
    shared: detectorsInThread,
  });
  let read = 0;
  for await (const part of readSpool(batch, stores)) {
    builder.addPart(part);
    read += part.claimCount;
    if (context.signal.aborted) throw new Error(WORKER_STOPPED);
    await report((read / batch.total_claims) * PASS_ONE_END, 0);
  }
  await report(PASS_ONE_END, 0);
  const view: ColumnarBatchView = builder.finish();
  const flagThreshold = await fwaFlagThreshold(db, batch.tenant_id);
  const decisions: BatchDecisions = await analyzeColumns(view, {
    flagThreshold,
    inThread: detectorsInThread,
  });
  await report(PASS_TWO_END, 0);
  // taken first: the pages' thread takes the buffers of what only the results read (result-writer.ts)
  const rankingView = rankingColumns(view);
  const source = resultSourceOf(view, decisions, { batchId: batch.id, analyzedAt: new Date().toISOString() });
  // the reporter is asked every 2 % of the claims (each part in pass one); it tells every 10 % (or 5 s)
  const pages = writeResultPages(db, source, {
    batchId: batch.id,
    attempt,
    inThread: view.claimCount >= settings.resultsThreadClaims,
    step: Math.max(1, Math.floor(batch.total_claims / 50)),
    onProgress: (claims) =>
      report(PASS_TWO_END + (claims / batch.total_claims) * (100 - PASS_TWO_END), claims),
    stopped: () => context.signal.aborted,
  });
  return { decisions, pages, rankingView };
}

/**
 * The analysis of one batch, from its spool: pass one joins the spool's column parts, pass two runs the detectors
 * and settles every item, pass three writes the results by page from the columns and the decisions while the
 * providers are ranked beside it, then the members. An attempt starts from scratch (an earlier one's pages are deleted first), so a worker that died mid-batch leaves
 * nothing the next attempt trips over.
 */
async function analyze(data: AnalysisJobData, context: JobContext, settings: BatchSettings) {
  const { db } = context;
  const batch = await batchRepo.findForWorker(db, data.batchId);
  if (batch === undefined || batch.status === "completed" || batch.status === "failed") return;
  const stores: SpoolStores = { db, spoolDir: settings.spoolDir };
  const missing = await spoolOf(batch, stores).missing(batch);
  if (missing !== undefined) throw new Error(missing);
  const attempt = await db.transaction(async (tx) => {
    const number = await batchRepo.startAttempt(tx, batch.id);
    // the first attempt to start announces the processing, once
    const started = await tx.query(
      "UPDATE claims_batches SET status = 'processing' WHERE id = $1 AND status = 'queued' RETURNING id",
      [batch.id],
    );
    if (started.length === 0) return number;
    await emitForBatch(tx, context.jobs, batch, "batch.processing", {
      processing_progress: 0,
      estimated_completion_time: estimatedCompletion(new Date(), batch.total_items),
    });
    return number;
  });
  const started = Date.now();
  const report = progressReporter(context, batch);
  const settled = await settleClaims(batch, attempt, stores, context, settings, report);
  const { decisions, rankingView } = settled;
  const availableUntil = new Date(Date.now() + settings.resultsDays * 86_400_000);
  let processed: number;
  try {
    const model = await activeModel(db, batch.tenant_id);
    const evidence = providerEvidence(rankingView, decisions);
    const providers = rankProviders(rankingView, evidence, model);
    await writeRankings(db, batch.id, attempt, "providers", {
      count: providers.length,
      rows: (from, to) => providers.slice(from, to),
    });
    const features = evidence.map((e) => ({
      provider_id: textOf(rankingView, e.tally.provider),
      features: tenantFeaturesOf(e),
    }));
    await recordProviderFeatures(db, batch.tenant_id, batch.id, features, availableUntil);
    // the members' ranking holds some 200 MB more at ten million items: it waits for the pages' thread to
    // let go of the columns it was given (10,000,000 items peaked at 1.56-1.58 GB with the two together)
    processed = await settled.pages.done;
    await writeRankings(db, batch.id, attempt, "members", memberRanking(rankingView, decisions));
  } finally {
    settled.pages.stop();
  }
  const completed = await db.transaction(async (tx) => {
    const done = await batchRepo.complete(tx, batch.id, attempt, {
      summary: decisions.summary,
      processed,
      failed: batch.total_claims - processed,
      availableUntil,
    });
    if (done === undefined) return false;
    await emitForBatch(tx, context.jobs, batch, "batch.completed", {
      total_claims: batch.total_claims,
      processed_claims: processed,
      failed_claims: batch.total_claims - processed,
      processing_time_seconds: Math.round((Date.now() - started) / 100) / 10,
      results_available_until: availableUntil.toISOString(),
    });
    await recordAudit(tx, workerActor(batch), {
      action: "claims-batch.completed",
      entityType: "claims-batch",
      entityKey: batch.id,
      details: { ...decisions.summary },
    });
    return true;
  });
  if (!completed) {
    // a newer attempt started meanwhile: it completes the batch, this one's pages go
    await batchRepo.dropAttemptPages(db, batch.id, attempt);
    return;
  }
  await removeSpool(batch, stores);
  const seconds = (Date.now() - started) / 1000;
  batchAnalyses.inc({ outcome: "completed" });
  batchAnalysisSeconds.observe(seconds);
  context.log.info({ batch: batch.id, claims: processed, seconds }, "batch analysed");
}

function workerActor(batch: BatchRow) {
  return { tenantId: batch.tenant_id, actor: "batch analysis", requestId: batch.request_id ?? undefined };
}

/**
 * After its last attempt: the batch failed, with PROCESSING_ERROR, and says so. The tenant sees the code
 * and a reference; the error itself (a spool path, a database message) goes to the log only.
 */
async function giveUp(data: AnalysisJobData, error: unknown, db: Db, context: JobContext, spoolDir: string) {
  const failure = publicFailure(context.log, error, "PROCESSING_ERROR", "The analysis", {
    batch: data.batchId,
  });
  const failed = await db.transaction(async (tx) => {
    const batch = await batchRepo.fail(tx, data.batchId, failure.message, failure.code);
    if (batch === undefined) return undefined;
    batchAnalyses.inc({ outcome: "failed" });
    await emitForBatch(tx, context.jobs, batch, "batch.failed", {
      error: failure.message,
      error_code: failure.code,
      error_reference: failure.reference,
    });
    await recordAudit(tx, workerActor(batch), {
      action: "claims-batch.failed",
      entityType: "claims-batch",
      entityKey: batch.id,
      outcome: "failed",
      details: { error_reference: failure.reference },
    });
    return batch;
  });
  if (failed !== undefined) await removeSpool(failed, { db, spoolDir });
}

export function batchAnalysisJob(settings: BatchSettings): JobDefinition<AnalysisJobData> {
  return {
    queue: ANALYSIS_QUEUE,
    retryLimit: 2,
    retryDelaySeconds: 5,
    // a worker that dies mid-batch stops its heartbeat: the batch goes to the next worker after this
    heartbeatSeconds: 30,
    // a client waits for its batch: the analysis starts as the upload commits, not at the next poll
    startsAtOnce: true,
    handle: (data, context) => analyze(data, context, settings),
    giveUp: (data, error, context) => giveUp(data, error, context.db, context, settings.spoolDir),
  };
}
