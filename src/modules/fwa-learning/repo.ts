import type { ModelValidation } from "../../engine/fwa/model/provider-model.js";
import type { TenantModel } from "../../engine/fwa/model/tenant-model.js";
import type { Queryable } from "../../platform/db/db.js";

export interface ModelRow {
  status: "none" | "training" | "ready";
  /** its `kind` says which: "boosted-trees", else a logistic regression */
  model: TenantModel | null;
  validation: ModelValidation | null;
  examples: number;
  positives: number;
  trained_at: Date | null;
  message: string | null;
}

/** a provider of a batch with the features the analysis derived for it (TENANT_FEATURES, in order) */
export interface ProviderFeatureRow {
  provider_id: string;
  features: number[];
}

export interface OutcomeExample {
  provider_id: string;
  features: number[];
  fraud: boolean;
}

/** the tables of learning from outcomes: features by batch, outcomes, models */
export const learningRepo = {
  /** a batch's provider features, replacing an earlier attempt's */
  async replaceFeatures(
    db: Queryable,
    tenantId: number,
    batchId: string,
    rows: ProviderFeatureRow[],
    availableUntil: Date,
  ): Promise<void> {
    await db.query("DELETE FROM fwa_provider_features WHERE batch_id = $1", [batchId]);
    const chunk = 5_000;
    for (let from = 0; from < rows.length; from += chunk)
      await db.query(
        `INSERT INTO fwa_provider_features (tenant_id, batch_id, provider_id, features, available_until)
         SELECT $1, $2, r.provider_id, r.features, $4
         FROM jsonb_to_recordset($3::jsonb) AS r (provider_id text, features jsonb)`,
        [tenantId, batchId, JSON.stringify(rows.slice(from, from + chunk)), availableUntil],
      );
  },

  /** whether the tenant has the batch's features (an analysed batch whose results are kept) */
  async hasBatch(db: Queryable, tenantId: number, batchId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(batchId)) return false;
    const rows = await db.query(
      "SELECT 1 FROM fwa_provider_features WHERE tenant_id = $1 AND batch_id = $2 LIMIT 1",
      [tenantId, batchId],
    );
    return rows.length > 0;
  },

  /**
   * Stores outcomes with the features their providers had in the batch; one per provider, a later word
   * replacing an earlier. Answers the providers stored, each saying whether it replaced an outcome that
   * differed; providers not in the batch are not stored.
   */
  async upsertOutcomes(
    tx: Queryable,
    tenantId: number,
    batchId: string,
    outcomes: { provider_id: string; fraud: boolean }[],
    requestId: string | undefined,
  ): Promise<{ provider_id: string; changed: boolean }[]> {
    return tx.query<{ provider_id: string; changed: boolean }>(
      `WITH given AS (
         SELECT * FROM jsonb_to_recordset($3::jsonb) AS g (provider_id text, fraud boolean)
       ), earlier AS (
         SELECT o.provider_id, o.fraud FROM fwa_outcomes o
         WHERE o.tenant_id = $1 AND o.batch_id = $2 AND o.provider_id IN (SELECT provider_id FROM given)
       )
       INSERT INTO fwa_outcomes (tenant_id, batch_id, provider_id, features, fraud, request_id)
       SELECT $1, $2, f.provider_id, f.features, g.fraud, $4
       FROM given g JOIN fwa_provider_features f
         ON f.tenant_id = $1 AND f.batch_id = $2 AND f.provider_id = g.provider_id
       ON CONFLICT (tenant_id, batch_id, provider_id) DO UPDATE
         SET fraud = EXCLUDED.fraud, received_at = now(), request_id = EXCLUDED.request_id
       RETURNING provider_id,
         COALESCE((SELECT e.fraud FROM earlier e WHERE e.provider_id = fwa_outcomes.provider_id) <> fraud, false)
           AS changed`,
      [tenantId, batchId, JSON.stringify(outcomes), requestId ?? null],
    );
  },

  /**
   * The tenant's outcomes and when they were read (the database's clock, as requested_at's), with the
   * model's row locked: a post that set requested_at before this read has committed, so its outcomes are
   * read. Undefined when the tenant has no model row (forgotten since the job was asked for).
   */
  async examplesForFit(
    tx: Queryable,
    tenantId: number,
  ): Promise<{ readAt: string; examples: OutcomeExample[] } | undefined> {
    // as text, to the microsecond: a Date would drop the microseconds and read a post of the same millisecond as later
    const [row] = await tx.query<{ read_at: string }>(
      "SELECT clock_timestamp()::text AS read_at FROM fwa_models WHERE tenant_id = $1 FOR UPDATE",
      [tenantId],
    );
    if (row === undefined) return undefined;
    const examples = await tx.query<OutcomeExample>(
      "SELECT provider_id, features, fraud FROM fwa_outcomes WHERE tenant_id = $1 ORDER BY batch_id, provider_id",
      [tenantId],
    );
    return { readAt: row.read_at, examples };
  },

  /** outcomes arrived: the model is to be fitted again */
  async markTraining(tx: Queryable, tenantId: number): Promise<void> {
    await tx.query(
      `INSERT INTO fwa_models (tenant_id, status, requested_at) VALUES ($1, 'training', clock_timestamp())
       ON CONFLICT (tenant_id) DO UPDATE SET status = 'training', requested_at = clock_timestamp()`,
      [tenantId],
    );
  },

  /**
   * Records a fit made from the outcomes as they were at `readAt`; a fit older than the one recorded is
   * dropped, and the status stays `training` when outcomes arrived since `readAt` (answered: another fit
   * is then due).
   */
  async recordFit(
    db: Queryable,
    tenantId: number,
    readAt: string,
    fit: Pick<ModelRow, "model" | "validation" | "examples" | "positives" | "message">,
  ): Promise<ModelRow["status"] | undefined> {
    const rows = await db.query<{ status: ModelRow["status"] }>(
      `UPDATE fwa_models SET
         status = CASE WHEN requested_at > $2::timestamptz THEN 'training' WHEN $3::jsonb IS NULL THEN 'none' ELSE 'ready' END,
         model = $3, validation = $4, examples = $5, positives = $6, message = $7,
         trained_at = CASE WHEN $3::jsonb IS NULL THEN NULL ELSE now() END, fitted_through = $2::timestamptz
       WHERE tenant_id = $1 AND (fitted_through IS NULL OR fitted_through <= $2::timestamptz)
       RETURNING status`,
      [
        tenantId,
        readAt,
        fit.model === null ? null : JSON.stringify(fit.model),
        fit.validation === null ? null : JSON.stringify(fit.validation),
        fit.examples,
        fit.positives,
        fit.message,
      ],
    );
    return rows[0]?.status;
  },

  /**
   * A fit that failed: the model that stands (if any) stays, and the row says why no newer one came, in
   * words the tenant may read (a code and a reference, never the error's text).
   */
  async recordFailure(db: Queryable, tenantId: number, message: string): Promise<void> {
    await db.query(
      `UPDATE fwa_models SET status = CASE WHEN model IS NULL THEN 'none' ELSE 'ready' END, message = $2
       WHERE tenant_id = $1`,
      [tenantId, message.slice(0, 500)],
    );
  },

  async find(db: Queryable, tenantId: number): Promise<ModelRow | undefined> {
    const rows = await db.query<ModelRow>(
      `SELECT status, model, validation, examples, positives, trained_at, message FROM fwa_models
       WHERE tenant_id = $1`,
      [tenantId],
    );
    return rows[0];
  },

  /** forgets the tenant's model and outcomes */
  async forget(tx: Queryable, tenantId: number): Promise<void> {
    await tx.query("DELETE FROM fwa_outcomes WHERE tenant_id = $1", [tenantId]);
    await tx.query("DELETE FROM fwa_models WHERE tenant_id = $1", [tenantId]);
  },

  async purgeExpiredFeatures(db: Queryable, now: Date): Promise<number> {
    const rows = await db.query("DELETE FROM fwa_provider_features WHERE available_until < $1 RETURNING 1", [
      now,
    ]);
    return rows.length;
  },
};
