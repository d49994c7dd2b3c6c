import type { Queryable } from "../db/db.js";
import { selectPage } from "../db/sql.js";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** a delivery with what its attempt sends: the stored event and the webhook it goes to */
export interface DeliveryToAttempt {
  id: number;
  tenant_id: number;
  status: DeliveryStatus;
  attempts: number;
  first_attempt_at: Date | null;
  subject: string | null;
  event_seq: number;
  webhook_id: number | null;
  subscription_id: string | null;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  /** the event's data exactly as stored */
  data: string;
  /** the target's URL, secret and state, whichever kind of target it is */
  target_url: string;
  target_secret: string | null;
  target_active: boolean;
  /** when the earliest delivery of the same subject to the same target that is still pending is due */
  earlier_due: Date | null;
}

export interface AttemptRecord {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
}

export interface DeliveryRow {
  id: number;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: Date;
  completed_at: Date | null;
  next_attempt_at: Date;
}

export interface AttemptRow {
  delivery_id: number;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  next_attempt_at: Date | null;
}

/** what was still to be delivered: of a target that is gone, or one delivery (column "id") */
async function cancelPendingOf(
  tx: Queryable,
  column: "webhook_id" | "subscription_id" | "id",
  id: number | string,
) {
  await tx.query(
    `UPDATE event_deliveries SET status = 'cancelled', completed_at = now() WHERE ${column} = $1 AND status = 'pending'`,
    [id],
  );
}

/** a pending earlier delivery of the same subject to the same target (each kind of target has its index) */
const EARLIER_DUE = (target: "webhook_id" | "subscription_id") =>
  `(SELECT p.next_attempt_at FROM event_deliveries p
    WHERE p.${target} = d.${target} AND p.subject = d.subject AND p.event_seq < d.event_seq AND p.status = 'pending'
    ORDER BY p.event_seq LIMIT 1)`;

const DEACTIVATE = {
  webhook_id: `UPDATE webhooks SET is_active = false, deactivated_at = now(), deactivated_reason = $3
               WHERE tenant_id = $1 AND id = $2 AND is_active RETURNING id`,
  subscription_id: `UPDATE claims_subscriptions SET status = 'inactive', deactivated_reason = $3
                    WHERE tenant_id = $1 AND id = $2 AND status = 'active' RETURNING id`,
} as const;

/** deactivates a target and cancels what was still to reach it; false when it was inactive already */
async function deactivate(
  tx: Queryable,
  target: keyof typeof DEACTIVATE,
  tenantId: number,
  id: number | string,
  reason: "removed" | "gone",
): Promise<boolean> {
  const changed = await tx.query(DEACTIVATE[target], [tenantId, id, reason]);
  if (changed.length === 0) return false;
  await cancelPendingOf(tx, target, id);
  return true;
}

export const deliveryRepo = {
  async findToAttempt(db: Queryable, deliveryId: number): Promise<DeliveryToAttempt | undefined> {
    const rows = await db.query<DeliveryToAttempt>(
      `SELECT d.id, d.tenant_id, d.status, d.attempts, d.first_attempt_at, d.subject, d.event_seq, d.webhook_id,
              d.subscription_id, e.id AS event_id, e.event_type, e.created_at AS event_created_at,
              e.data::text AS data, COALESCE(w.webhook_url, s.webhook_url) AS target_url,
              COALESCE(w.secret_token, s.secret) AS target_secret,
              COALESCE(w.is_active, s.status = 'active') AS target_active,
              COALESCE(${EARLIER_DUE("webhook_id")}, ${EARLIER_DUE("subscription_id")}) AS earlier_due
       FROM event_deliveries d JOIN events e ON e.id = d.event_id
       LEFT JOIN webhooks w ON w.id = d.webhook_id LEFT JOIN claims_subscriptions s ON s.id = d.subscription_id
       WHERE d.id = $1`,
      [deliveryId],
    );
    return rows[0];
  },

  /**
   * Records an attempt and the delivery's resulting state. Only the attempt the delivery expects moves
   * it (a job run twice records its attempt but changes nothing more); false when it did not.
   */
  async recordAttempt(
    tx: Queryable,
    deliveryId: number,
    attempt: AttemptRecord,
    status: DeliveryStatus,
  ): Promise<boolean> {
    // one statement: the attempt and the delivery's state are written together, in a transaction or not
    const moved = await tx.query(
      `WITH moved AS (
         UPDATE event_deliveries SET attempts = $2, first_attempt_at = COALESCE(first_attempt_at, $3),
           status = $4, next_attempt_at = COALESCE($5, next_attempt_at),
           completed_at = CASE WHEN $4 = 'pending' THEN NULL ELSE now() END
         WHERE id = $1 AND attempts = $2 - 1 AND status = 'pending' RETURNING id),
       recorded AS (
         INSERT INTO event_delivery_attempts
           (delivery_id, attempt, attempted_at, status_code, latency_ms, error, next_attempt_at)
         VALUES ($1, $2, $3, $6, $7, $8, $5))
       SELECT id FROM moved`,
      [
        deliveryId,
        attempt.attempt,
        attempt.attemptedAt,
        status,
        attempt.nextAttemptAt,
        attempt.statusCode,
        attempt.latencyMs,
        attempt.error,
      ],
    );
    return moved.length > 0;
  },

  /**
   * A run of this attempt stopped before recording it (its worker died, or the job failed afterwards):
   * whether the receiver got it is unknown. Recorded so the history shows it; the attempt is made again.
   */
  async recordInterrupted(db: Queryable, deliveryId: number, attempt: number): Promise<void> {
    await db.query(
      `INSERT INTO event_delivery_attempts (delivery_id, attempt, attempted_at, latency_ms, error, next_attempt_at)
       VALUES ($1, $2, now(), 0, $3, now())`,
      [
        deliveryId,
        attempt,
        "interrupted: an earlier run of this attempt stopped before its outcome was recorded",
      ],
    );
  },

  cancel: (db: Queryable, deliveryId: number): Promise<void> => cancelPendingOf(db, "id", deliveryId),

  /**
   * Deactivates a webhook (removed by its tenant, or gone: the receiver answered 410) and cancels what
   * was still to be delivered to it. False when it was inactive already.
   */
  deactivateWebhook: (tx: Queryable, tenantId: number, webhookId: number, reason: "removed" | "gone") =>
    deactivate(tx, "webhook_id", tenantId, webhookId, reason),

  /** a claims subscription, likewise */
  deactivateSubscription: (
    tx: Queryable,
    tenantId: number,
    subscriptionId: string,
    reason: "removed" | "gone",
  ) => deactivate(tx, "subscription_id", tenantId, subscriptionId, reason),

  /** a webhook's deliveries, newest first, each with every attempt */
  async findPageForWebhook(
    db: Queryable,
    webhookId: number,
    filter: { status?: DeliveryStatus | undefined; limit: number; skip: number },
  ): Promise<{ total: number; rows: (DeliveryRow & { attempt_list: AttemptRow[] })[] }> {
    const params: unknown[] = [webhookId];
    let matches = `SELECT d.id, d.event_id, e.event_type, d.status, d.attempts, d.created_at, d.completed_at,
                          d.next_attempt_at, -d.id AS newest_first
                   FROM event_deliveries d JOIN events e ON e.id = d.event_id WHERE d.webhook_id = $1`;
    if (filter.status !== undefined) {
      params.push(filter.status);
      matches += " AND d.status = $2";
    }
    const page = await selectPage<DeliveryRow>(db, matches, params, {
      orderBy: "newest_first",
      limit: filter.limit,
      skip: filter.skip,
    });
    const attempts = await db.query<AttemptRow>(
      `SELECT delivery_id, attempt, attempted_at, status_code, latency_ms, error, next_attempt_at
       FROM event_delivery_attempts WHERE delivery_id = ANY($1::bigint[]) ORDER BY delivery_id, attempt, id`,
      [page.rows.map((row) => row.id)],
    );
    return {
      total: page.total,
      rows: page.rows.map((row) => ({
        ...row,
        attempt_list: attempts.filter((attempt) => attempt.delivery_id === row.id),
      })),
    };
  },
};
