import type { Queryable } from "../db/db.js";
import { selectPage } from "../db/sql.js";
import { type DeliveryTargets, TARGET_COLUMN_NAMES, type TargetColumn } from "./targets.js";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** a delivery with what its attempt sends: the stored event and the target it goes to */
export interface DeliveryToAttempt {
  id: number;
  tenant_id: number;
  status: DeliveryStatus;
  attempts: number;
  first_attempt_at: Date | null;
  subject: string | null;
  event_seq: number;
  /** the column of event_deliveries naming the target (its kind) and the target's id */
  target_column: TargetColumn;
  target_id: string;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  /** the event's data exactly as stored */
  data: string;
  /** the target's URL, secret and state, as the module that owns the target reads them */
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
async function cancelPendingOf(tx: Queryable, column: TargetColumn | "id", id: number | string) {
  await tx.query(
    `UPDATE event_deliveries SET status = 'cancelled', completed_at = now() WHERE ${column} = $1 AND status = 'pending'`,
    [id],
  );
}

/** a pending earlier delivery of the same subject to the same target (each kind of target has its index) */
const EARLIER_DUE = (target: TargetColumn) =>
  `(SELECT p.next_attempt_at FROM event_deliveries p
    WHERE p.${target} = d.${target} AND p.subject = d.subject AND p.event_seq < d.event_seq AND p.status = 'pending'
    ORDER BY p.event_seq LIMIT 1)`;

/** the statement reading a delivery to attempt: its event, and its target as the target's kind reads it */
function toAttemptStatement(kinds: readonly DeliveryTargets[]): string {
  const target = (field: string) => `COALESCE(${kinds.map((_, n) => `t${n}.${field}`).join(", ")})`;
  return `SELECT d.id, d.tenant_id, d.status, d.attempts, d.first_attempt_at, d.subject, d.event_seq,
            CASE ${TARGET_COLUMN_NAMES.map((column) => `WHEN d.${column} IS NOT NULL THEN '${column}'`).join(" ")} END AS target_column,
            COALESCE(${TARGET_COLUMN_NAMES.map((column) => `d.${column}::text`).join(", ")}) AS target_id,
            e.id AS event_id, e.event_type, e.created_at AS event_created_at, e.data::text AS data,
            ${target("url")} AS target_url, ${target("secret")} AS target_secret, ${target("active")} AS target_active,
            COALESCE(${TARGET_COLUMN_NAMES.map(EARLIER_DUE).join(", ")}) AS earlier_due
          FROM event_deliveries d JOIN events e ON e.id = d.event_id
          ${kinds.map((kind, n) => `LEFT JOIN LATERAL (${kind.selectAddress(`d.${kind.column}`)}) AS t${n} ON true`).join("\n")}
          WHERE d.id = $1`;
}

/** a delivery to attempt, and the kind of target it goes to */
export interface Attempting {
  delivery: DeliveryToAttempt;
  kind: DeliveryTargets;
}

/** reads a delivery to attempt, with its target from whichever of `kinds` it goes to */
export function deliveryReader(
  kinds: readonly DeliveryTargets[],
): (db: Queryable, deliveryId: number) => Promise<Attempting | undefined> {
  const statement = toAttemptStatement(kinds);
  return async (db, deliveryId) => {
    const [delivery] = await db.query<DeliveryToAttempt>(statement, [deliveryId]);
    if (delivery === undefined) return undefined;
    const kind = kinds.find((candidate) => candidate.column === delivery.target_column);
    if (kind === undefined) throw new Error(`no kind of event target is wired for ${delivery.target_column}`);
    return { delivery, kind };
  };
}

/**
 * Deactivates a target (removed by its tenant, or gone: the receiver answered 410) and cancels what was
 * still to be delivered to it. False when it was inactive already.
 */
export async function deactivateTarget(
  tx: Queryable,
  kind: DeliveryTargets,
  tenantId: number,
  id: number | string,
  reason: "removed" | "gone",
): Promise<boolean> {
  if (!(await kind.deactivate(tx, tenantId, String(id), reason))) return false;
  await cancelPendingOf(tx, kind.column, id);
  return true;
}

export const deliveryRepo = {
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

  /** a target's deliveries, newest first, each with every attempt */
  async findPageForTarget(
    db: Queryable,
    kind: Pick<DeliveryTargets, "column">,
    id: number | string,
    filter: { status?: DeliveryStatus | undefined; limit: number; skip: number },
  ): Promise<{ total: number; rows: (DeliveryRow & { attempt_list: AttemptRow[] })[] }> {
    const params: unknown[] = [id];
    let matches = `SELECT d.id, d.event_id, e.event_type, d.status, d.attempts, d.created_at, d.completed_at,
                          d.next_attempt_at, -d.id AS newest_first
                   FROM event_deliveries d JOIN events e ON e.id = d.event_id WHERE d.${kind.column} = $1`;
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
