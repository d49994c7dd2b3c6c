/**
 * Learning from investigators' outcomes (docs/operator-contract.md section 10, docs/fwa.md section 6). The
 * analysis of a batch records its providers' features (recordProviderFeatures); investigators' outcomes
 * for a batch's providers become examples (features and verdict, never claims); a job fits the tenant's
 * model on them; later analyses rank providers with it (activeModel) once it is good enough.
 */
import { featureWeights, type TenantModel } from "../../engine/fwa/model/tenant-model.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { learningRepo, type ModelRow, type ProviderFeatureRow } from "./repo.js";
import type { ModelView, OutcomesInput } from "./schemas.js";
import { MIN_EXAMPLES, MIN_PER_CLASS, MIN_VALIDATION_AUC, requestTraining } from "./training.js";

/** what rows written before failures carried references said: the error's own text, never shown */
const UNREFERENCED_FAILURE = /^the last fit failed: /;

export function presentModel(row: ModelRow | undefined): ModelView {
  const validation = row?.validation ?? null;
  return {
    status: row?.status ?? "none",
    examples: row?.examples ?? 0,
    positives: row?.positives ?? 0,
    trained_at: row?.trained_at?.toISOString() ?? null,
    validation: validation === null ? null : { roc_auc: validation.roc_auc, pr_auc: validation.pr_auc },
    features: row?.model == null ? [] : featureWeights(row.model),
    active: isActive(row),
    minimum: { examples: MIN_EXAMPLES, per_class: MIN_PER_CLASS, validation_roc_auc: MIN_VALIDATION_AUC },
    message: UNREFERENCED_FAILURE.test(row?.message ?? "")
      ? "MODEL_TRAINING_FAILED: the last training failed"
      : (row?.message ?? null),
  };
}

const isActive = (row: ModelRow | undefined): boolean =>
  row?.model != null && (row.validation?.roc_auc ?? 0) >= MIN_VALIDATION_AUC;

/** the model later analyses of the tenant rank providers with, when it has one good enough */
export async function activeModel(db: Queryable, tenantId: number): Promise<TenantModel | undefined> {
  const row = await learningRepo.find(db, tenantId);
  return isActive(row) ? (row?.model ?? undefined) : undefined;
}

/** the analysis of a batch keeps its providers' features, for outcomes that name them later */
export function recordProviderFeatures(
  db: Queryable,
  tenantId: number,
  batchId: string,
  rows: ProviderFeatureRow[],
  availableUntil: Date,
): Promise<void> {
  return learningRepo.replaceFeatures(db, tenantId, batchId, rows, availableUntil);
}

export interface OutcomesAccepted {
  accepted: number;
  /** outcomes that changed an earlier, different verdict on the same provider of the same batch */
  replaced: number;
  rejected: { provider_id: string; reason: string }[];
  model: ModelView;
}

/**
 * Takes confirmed (fraud) or cleared providers of an analysed batch. An unknown batch is 404 and stores
 * nothing; a provider not in the batch, or given both verdicts in one request, is rejected with its reason
 * and stores nothing; the others are stored (a provider given twice alike counts once) and a fit is asked
 * for, in the same transaction (one waiting fit per tenant: a burst of posts is one fit, on the workers).
 */
export async function receiveOutcomes(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  input: OutcomesInput,
): Promise<OutcomesAccepted> {
  const verdicts = new Map<string, boolean | "both">();
  for (const { provider_id, fraud } of input.providers) {
    const earlier = verdicts.get(provider_id);
    verdicts.set(provider_id, earlier === undefined || earlier === fraud ? fraud : "both");
  }
  const rejected = [...verdicts]
    .filter(([, verdict]) => verdict === "both")
    .map(([provider_id]) => ({ provider_id, reason: "given as both fraud and not fraud in this request" }));
  const outcomes = [...verdicts].flatMap(([provider_id, fraud]) =>
    fraud === "both" ? [] : [{ provider_id, fraud }],
  );
  return db.transaction(async (tx) => {
    if (!(await learningRepo.hasBatch(tx, actor.tenantId, input.batch_id)))
      throw new AppError(
        "BATCH_NOT_FOUND",
        `Batch ${input.batch_id} is unknown, not analysed yet, or its results are no longer kept`,
      );
    const stored = await learningRepo.upsertOutcomes(
      tx,
      actor.tenantId,
      input.batch_id,
      outcomes,
      actor.requestId,
    );
    const storedIds = new Set(stored.map((row) => row.provider_id));
    for (const { provider_id } of outcomes)
      if (!storedIds.has(provider_id))
        rejected.push({ provider_id, reason: `not a provider of batch ${input.batch_id}` });
    if (stored.length > 0) {
      await requestTraining(tx, jobs, actor.tenantId, actor.requestId);
      await recordAudit(tx, actor, {
        action: "fwa.outcomes",
        entityType: "claims-batch",
        entityKey: input.batch_id,
        details: { accepted: stored.length, rejected: rejected.length },
      });
    }
    return {
      accepted: stored.length,
      replaced: stored.filter((row) => row.changed).length,
      rejected,
      model: presentModel(await learningRepo.find(tx, actor.tenantId)),
    };
  });
}

/** forgets the tenant's model and every outcome it learned from */
export async function forgetModel(db: Db, actor: TenantActor): Promise<ModelView> {
  return db.transaction(async (tx) => {
    await learningRepo.forget(tx, actor.tenantId);
    await recordAudit(tx, actor, { action: "fwa.model.forget", entityType: "fwa-model", entityKey: "model" });
    return presentModel(undefined);
  });
}

export async function modelOf(db: Queryable, tenantId: number): Promise<ModelView> {
  return presentModel(await learningRepo.find(db, tenantId));
}
