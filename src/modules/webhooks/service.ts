import type { WebhookSettings } from "../../config.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { deactivateTarget, deliveryRepo } from "../../platform/events/deliveries.js";
import { emitEventTo } from "../../platform/events/outbox.js";
import { checkTarget } from "../../platform/events/target-address.js";
import { AppError } from "../../platform/http/errors.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { type WebhookRow, webhookRepo, webhookTargets } from "./repo.js";
import type { DeliveryFilter, WebhookCreateInput, WebhookView } from "./schemas.js";

export function presentWebhook(row: WebhookRow): WebhookView {
  return { ...row, created_at: row.created_at.toISOString() };
}

export async function createWebhook(
  db: Db,
  settings: Pick<WebhookSettings, "allowPrivate">,
  actor: TenantActor,
  input: WebhookCreateInput,
): Promise<WebhookRow> {
  await checkTarget(
    { url: input.webhook_url, secret: input.secret_token ?? null, secretField: "secret_token" },
    settings.allowPrivate,
  );
  return db.transaction(async (tx) => {
    const webhook = await webhookRepo.insert(tx, actor.tenantId, {
      webhook_url: input.webhook_url,
      hook_type: input.hook_type,
      secret_token: input.secret_token ?? null,
    });
    await recordAudit(tx, actor, {
      action: "webhook.create",
      entityType: "webhook",
      entityKey: String(webhook.id),
      details: {
        hook_type: webhook.hook_type,
        webhook_url: webhook.webhook_url,
        signed: webhook.secret_token !== null,
      },
    });
    return webhook;
  });
}

export function listWebhooks(db: Db, tenantId: number): Promise<WebhookRow[]> {
  return webhookRepo.findAll(db, tenantId);
}

async function requireWebhook(db: Queryable, tenantId: number, id: number): Promise<WebhookRow> {
  const webhook = await webhookRepo.findById(db, tenantId, id);
  if (webhook === undefined) throw new AppError("E_WEBHOOK_NOT_FOUND_404", `Webhook ${id} not found`);
  return webhook;
}

/** deactivates the webhook and cancels what was still to reach it; removing it again changes nothing */
export function removeWebhook(db: Db, actor: TenantActor, id: number): Promise<WebhookRow> {
  return db.transaction(async (tx) => {
    const webhook = await requireWebhook(tx, actor.tenantId, id);
    if (await deactivateTarget(tx, webhookTargets, actor.tenantId, id, "removed")) {
      await recordAudit(tx, actor, {
        action: "webhook.remove",
        entityType: "webhook",
        entityKey: String(id),
      });
    }
    // inactive now, whether this call or an earlier one deactivated it
    return { ...webhook, is_active: false };
  });
}

export async function findDeliveries(db: Db, tenantId: number, id: number, filter: DeliveryFilter) {
  await requireWebhook(db, tenantId, id);
  return deliveryRepo.findPageForTarget(db, webhookTargets, id, filter);
}

/** a signed PING event to this webhook alone, delivered (and recorded) like any other event */
export function sendTestEvent(db: Db, jobs: JobQueue, actor: TenantActor, id: number) {
  return db.transaction(async (tx) => {
    const webhook = await requireWebhook(tx, actor.tenantId, id);
    if (!webhook.is_active) throw new AppError("E_WEBHOOK_INACTIVE_409", `Webhook ${id} is not active`);
    const sent = await emitEventTo(
      tx,
      jobs,
      actor.tenantId,
      { kind: webhookTargets, id },
      {
        hookType: "PING",
        eventType: "PING",
        data: { webhook_id: id, hook_type: webhook.hook_type, message: "Test event from Mizan" },
        requestId: actor.requestId,
      },
    );
    await recordAudit(tx, actor, {
      action: "webhook.test",
      entityType: "webhook",
      entityKey: String(id),
      details: { event_id: sent.eventId },
    });
    return { eventId: sent.eventId, deliveryId: sent.deliveryId as number };
  });
}
