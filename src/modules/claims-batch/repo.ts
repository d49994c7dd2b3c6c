import type { Queryable } from "../../platform/db/db.js";
import type { DeliveryTargets } from "../../platform/events/targets.js";

export type BatchStatus = "queued" | "validating" | "processing" | "completed" | "failed";

/** what a new batch is stored with */
export type NewBatch = Pick<
  BatchRow,
  | "id"
  | "tenant_id"
  | "batch_reference_id"
  | "description"
  | "status"
  | "accepted"
  | "total_claims"
  | "total_items"
  | "spool_path"
  | "request_id"
  | "error"
  | "error_code"
> & {
  /** a database spool's parts (absent or null: the spool is the file spool_path) */
  spool_parts?: number | null;
  start_date: string | null;
  end_date: string | null;
  validation_errors: unknown;
};

export interface BatchRow {
  id: string;
  tenant_id: number;
  batch_reference_id: string;
  description: string | null;
  status: BatchStatus;
  accepted: boolean;
  total_claims: number;
  total_items: number;
  processed_claims: number;
  progress: number;
  failed_claims: number;
  summary: { approved: number; flagged: number; rejected: number; FWA_cases: number } | null;
  error: string | null;
  error_code: string | null;
  spool_path: string | null;
  /** null: the spool is the file spool_path; a number: that many parts in claims_batch_spool_parts */
  spool_parts: number | null;
  request_id: string | null;
  submitted_at: Date;
  processing_started_at: Date | null;
  processed_at: Date | null;
  results_available_until: Date | null;
  attempts: number;
  results_attempt: number | null;
}

const COLUMNS = `id, tenant_id, batch_reference_id, description, status, accepted, total_claims, total_items,
  processed_claims, progress, failed_claims, summary, error, error_code, spool_path, spool_parts, request_id,
  submitted_at, processing_started_at, processed_at, results_available_until, attempts, results_attempt`;

export type ResultView = "all" | "approved" | "flagged" | "rejected";
/** the rankings kept beside the results, a page of RESULT_PAGE_CLAIMS entities per row */
export type RankingView = "providers" | "members";
type PageView = ResultView | RankingView;

/** claims per stored page of results: the largest page a client may ask for */
export const RESULT_PAGE_CLAIMS = 1_000;

export const batchRepo = {
  async insert(tx: Queryable, batch: NewBatch): Promise<BatchRow> {
    const rows = await tx.query<BatchRow>(
      `INSERT INTO claims_batches (id, tenant_id, batch_reference_id, description, start_date, end_date, status,
         accepted, total_claims, total_items, spool_path, request_id, error, error_code, validation_errors,
         spool_parts)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING ${COLUMNS}`,
      [
        batch.id,
        batch.tenant_id,
        batch.batch_reference_id,
        batch.description,
        batch.start_date,
        batch.end_date,
        batch.status,
        batch.accepted,
        batch.total_claims,
        batch.total_items,
        batch.spool_path,
        batch.request_id,
        batch.error,
        batch.error_code,
        batch.validation_errors === null ? null : JSON.stringify(batch.validation_errors),
        batch.spool_parts ?? null,
      ],
    );
    return rows[0] as BatchRow;
  },

  /** the tenant's batch; another tenant's is as unknown as no batch */
  /** the tenant's accepted batch of that batch_reference_id, if any */
  async findByReference(db: Queryable, tenantId: number, reference: string): Promise<BatchRow | undefined> {
    const rows = await db.query<BatchRow>(
      `SELECT ${COLUMNS} FROM claims_batches WHERE tenant_id = $1 AND batch_reference_id = $2 AND accepted`,
      [tenantId, reference],
    );
    return rows[0];
  },

  async find(db: Queryable, tenantId: number, batchId: string): Promise<BatchRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(batchId)) return undefined;
    const rows = await db.query<BatchRow>(
      `SELECT ${COLUMNS} FROM claims_batches WHERE tenant_id = $1 AND id = $2`,
      [tenantId, batchId],
    );
    return rows[0];
  },

  /** the tenant's accepted batches, newest first (refused uploads are no batch to show) */
  listForTenant(db: Queryable, tenantId: number, page: { limit: number; offset: number }) {
    return db.query<BatchRow>(
      `SELECT ${COLUMNS} FROM claims_batches WHERE tenant_id = $1 AND accepted
       ORDER BY submitted_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [tenantId, page.limit, page.offset],
    );
  },

  async findForWorker(db: Queryable, batchId: string): Promise<BatchRow | undefined> {
    const rows = await db.query<BatchRow>(`SELECT ${COLUMNS} FROM claims_batches WHERE id = $1`, [batchId]);
    return rows[0];
  },

  /**
   * An attempt starts and gets its number. Attempts may overlap (a worker presumed dead that still runs):
   * each writes its own pages, and only the latest attempt can complete the batch.
   */
  async startAttempt(tx: Queryable, batchId: string): Promise<number> {
    const rows = await tx.query<{ attempts: number }>(
      `UPDATE claims_batches SET attempts = attempts + 1, processing_started_at = COALESCE(processing_started_at, now())
       WHERE id = $1 RETURNING attempts`,
      [batchId],
    );
    return (rows[0] as { attempts: number }).attempts;
  },

  /** pages an attempt wrote that will never be the results (it was overtaken by a newer one) */
  async dropAttemptPages(db: Queryable, batchId: string, attempt: number): Promise<void> {
    await db.query("DELETE FROM claims_batch_results WHERE batch_id = $1 AND attempt = $2", [
      batchId,
      attempt,
    ]);
  },

  async progress(db: Queryable, batchId: string, processedClaims: number, percent: number): Promise<void> {
    await db.query("UPDATE claims_batches SET processed_claims = $2, progress = $3 WHERE id = $1", [
      batchId,
      processedClaims,
      percent,
    ]);
  },

  async insertResultPage(
    db: Queryable,
    page: {
      batchId: string;
      attempt: number;
      view: PageView;
      page: number;
      claims: number;
      items: number;
      data: Buffer;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO claims_batch_results (batch_id, attempt, view, page, claims, items, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [page.batchId, page.attempt, page.view, page.page, page.claims, page.items, page.data],
    );
  },

  /**
   * Completes a processing batch with the pages of `attempt`, unless a newer attempt has started
   * (undefined then); other attempts' pages go.
   */
  async complete(
    tx: Queryable,
    batchId: string,
    attempt: number,
    outcome: { summary: BatchRow["summary"]; processed: number; failed: number; availableUntil: Date },
  ): Promise<BatchRow | undefined> {
    const rows = await tx.query<BatchRow>(
      `UPDATE claims_batches SET status = 'completed', summary = $2, processed_claims = $3, failed_claims = $4,
         progress = 100, results_attempt = $6,
         processed_at = now(), results_available_until = $5
       WHERE id = $1 AND status = 'processing' AND attempts = $6 RETURNING ${COLUMNS}`,
      [
        batchId,
        JSON.stringify(outcome.summary),
        outcome.processed,
        outcome.failed,
        outcome.availableUntil,
        attempt,
      ],
    );
    if (rows[0] !== undefined)
      await tx.query("DELETE FROM claims_batch_results WHERE batch_id = $1 AND attempt <> $2", [
        batchId,
        attempt,
      ]);
    return rows[0];
  },

  async fail(
    tx: Queryable,
    batchId: string,
    error: string,
    errorCode: string,
  ): Promise<BatchRow | undefined> {
    const rows = await tx.query<BatchRow>(
      `UPDATE claims_batches SET status = 'failed', error = $2, error_code = $3, processed_at = now()
       WHERE id = $1 AND status IN ('queued', 'validating', 'processing') RETURNING ${COLUMNS}`,
      [batchId, error, errorCode],
    );
    return rows[0];
  },

  /** the result pages `from` to `to` (inclusive) of a view, compressed */
  readPages(
    db: Queryable,
    batch: Pick<BatchRow, "id" | "results_attempt">,
    view: PageView,
    from: number,
    to: number,
  ) {
    return db.query<{ page: number; claims: number; data: Buffer | Uint8Array }>(
      `SELECT page, claims, data FROM claims_batch_results
       WHERE batch_id = $1 AND attempt = $2 AND view = $3 AND page BETWEEN $4 AND $5 ORDER BY page`,
      [batch.id, batch.results_attempt ?? 0, view, from, to],
    );
  },

  /** how many entities a ranking of the batch holds */
  async countRanked(db: Queryable, batch: Pick<BatchRow, "id" | "results_attempt">, view: RankingView) {
    const rows = await db.query<{ total: number }>(
      `SELECT COALESCE(SUM(claims), 0)::int AS total FROM claims_batch_results
       WHERE batch_id = $1 AND attempt = $2 AND view = $3`,
      [batch.id, batch.results_attempt ?? 0, view],
    );
    return rows[0]?.total ?? 0;
  },

  /** batches whose results are past their time: their results go (the batch's record stays) */
  async purgeExpiredResults(db: Queryable, now: Date): Promise<number> {
    const rows = await db.query<{ batch_id: string }>(
      `DELETE FROM claims_batch_results WHERE batch_id IN (
         SELECT id FROM claims_batches WHERE results_available_until < $1)
       RETURNING batch_id`,
      [now],
    );
    return new Set(rows.map((row) => row.batch_id)).size;
  },
};

/** a database spool's part as stored: its lines gzip-compressed */
export interface SpoolPart {
  batchId: string;
  part: number;
  claims: number;
  bytes: number;
  data: Buffer;
}

/** an upload that never became a batch is this old before its parts are purged (no upload lasts a day) */
const ORPHAN_PARTS_HOURS = 24;

/** the parts of database spools (claims_batch_spool_parts) */
export const spoolPartsRepo = {
  async insert(db: Queryable, part: SpoolPart): Promise<void> {
    await db.query(
      "INSERT INTO claims_batch_spool_parts (batch_id, part, claims, bytes, data) VALUES ($1, $2, $3, $4, $5)",
      [part.batchId, part.part, part.claims, part.bytes, part.data],
    );
  },

  /** one part's compressed lines, or undefined when it is not there */
  async read(db: Queryable, batchId: string, part: number): Promise<Buffer | Uint8Array | undefined> {
    const rows = await db.query<{ data: Buffer | Uint8Array }>(
      "SELECT data FROM claims_batch_spool_parts WHERE batch_id = $1 AND part = $2",
      [batchId, part],
    );
    return rows[0]?.data;
  },

  async count(db: Queryable, batchId: string): Promise<number> {
    const rows = await db.query<{ parts: number }>(
      "SELECT count(*)::int AS parts FROM claims_batch_spool_parts WHERE batch_id = $1",
      [batchId],
    );
    return rows[0]?.parts ?? 0;
  },

  async remove(db: Queryable, batchId: string): Promise<void> {
    await db.query("DELETE FROM claims_batch_spool_parts WHERE batch_id = $1", [batchId]);
  },

  /**
   * Parts nobody will read: those of batches that completed or failed (a node that died before removing
   * them), and those of uploads that never became a batch; answers how many went.
   */
  async purgeLeftovers(db: Queryable, now: Date): Promise<number> {
    const rows = await db.query<{ part: number }>(
      `DELETE FROM claims_batch_spool_parts p
       WHERE EXISTS (SELECT 1 FROM claims_batches b WHERE b.id = p.batch_id AND b.status IN ('completed', 'failed'))
          OR (NOT EXISTS (SELECT 1 FROM claims_batches b WHERE b.id = p.batch_id)
              AND p.created_at < $1::timestamptz - make_interval(hours => $2))
       RETURNING part`,
      [now, ORPHAN_PARTS_HOURS],
    );
    return rows.length;
  },
};

export interface SubscriptionRow {
  id: string;
  webhook_url: string;
  events: string[];
  status: string;
  created_at: Date;
}

export const subscriptionRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    subscription: { webhook_url: string; events: readonly string[]; secret: string | null },
  ): Promise<SubscriptionRow> {
    const rows = await tx.query<SubscriptionRow>(
      `INSERT INTO claims_subscriptions (tenant_id, webhook_url, events, secret) VALUES ($1, $2, $3, $4)
       RETURNING id, webhook_url, events, status, created_at`,
      [tenantId, subscription.webhook_url, subscription.events, subscription.secret],
    );
    return rows[0] as SubscriptionRow;
  },

  list(db: Queryable, tenantId: number): Promise<SubscriptionRow[]> {
    return db.query<SubscriptionRow>(
      `SELECT id, webhook_url, events, status, created_at FROM claims_subscriptions WHERE tenant_id = $1
       ORDER BY created_at, id`,
      [tenantId],
    );
  },

  async find(db: Queryable, tenantId: number, id: string): Promise<SubscriptionRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const rows = await db.query<SubscriptionRow>(
      `SELECT id, webhook_url, events, status, created_at FROM claims_subscriptions WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  },

  /** where the batch's events go: the URL of the tenant's first active subscription */
  async firstActiveUrl(db: Queryable, tenantId: number): Promise<string | null> {
    const rows = await db.query<{ webhook_url: string }>(
      `SELECT webhook_url FROM claims_subscriptions WHERE tenant_id = $1 AND status = 'active'
       ORDER BY created_at, id LIMIT 1`,
      [tenantId],
    );
    return rows[0]?.webhook_url ?? null;
  },
};

/**
 * Claims subscriptions as targets of events: a subscription receives the batch events it lists
 * (`batch.processing_update` also when it lists `batch.processing`), until it is deactivated.
 */
export const subscriptionTargets: DeliveryTargets = {
  column: "subscription_id",
  entityType: "claims-subscription",
  receives: (event) =>
    event.hookType !== "CLAIMS_BATCH"
      ? undefined
      : event.eventType === "batch.processing_update"
        ? `${event.eventType},batch.processing`
        : event.eventType,
  selectReceivers: (events) =>
    `SELECT id FROM claims_subscriptions WHERE tenant_id = $1 AND status = 'active'
       AND events && string_to_array(${events}, ',') ORDER BY created_at, id`,
  selectOne: (id) =>
    `SELECT id FROM claims_subscriptions WHERE tenant_id = $1 AND status = 'active' AND id = ${id}::uuid`,
  selectAddress: (id) =>
    `SELECT webhook_url AS url, secret, status = 'active' AS active FROM claims_subscriptions WHERE id = ${id}`,
  async deactivate(tx, tenantId, id, reason) {
    const changed = await tx.query(
      `UPDATE claims_subscriptions SET status = 'inactive', deactivated_reason = $3
       WHERE tenant_id = $1 AND id = $2 AND status = 'active' RETURNING id`,
      [tenantId, id, reason],
    );
    return changed.length > 0;
  },
};
