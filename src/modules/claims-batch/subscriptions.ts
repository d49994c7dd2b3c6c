import type { WebhookSettings } from "../../config.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { deactivateTarget } from "../../platform/events/deliveries.js";
import { checkTarget } from "../../platform/events/target-address.js";
import { AppError } from "../../platform/http/errors.js";
import { type SubscriptionRow, subscriptionRepo, subscriptionTargets } from "./repo.js";
import type { SubscribeInput } from "./schemas.js";

export function presentSubscription(row: SubscriptionRow) {
  return {
    subscription_id: row.id,
    webhook_url: row.webhook_url,
    status: row.status,
    events: row.events,
    created_at: row.created_at.toISOString(),
  };
}

/** POST /v1/webhooks/subscribe: the batch events the tenant's system wants, to one URL, signed with `secret` */
export async function subscribe(
  db: Db,
  settings: Pick<WebhookSettings, "allowPrivate">,
  actor: TenantActor,
  input: SubscribeInput,
): Promise<SubscriptionRow> {
  await checkTarget(
    { url: input.webhook_url, secret: input.secret ?? null, secretField: "secret" },
    settings.allowPrivate,
  );
  return db.transaction(async (tx) => {
    const row = await subscriptionRepo.insert(tx, actor.tenantId, {
      webhook_url: input.webhook_url,
      events: [...new Set(input.events)],
      secret: input.secret ?? null,
    });
    await recordAudit(tx, actor, {
      action: "claims-subscription.create",
      entityType: "claims-subscription",
      entityKey: row.id,
      details: { webhook_url: row.webhook_url, events: row.events, signed: input.secret != null },
    });
    return row;
  });
}

export async function unsubscribe(db: Db, actor: TenantActor, id: string): Promise<SubscriptionRow> {
  return db.transaction(async (tx) => {
    const subscription = await subscriptionRepo.find(tx, actor.tenantId, id);
    if (subscription === undefined)
      throw new AppError("SUBSCRIPTION_NOT_FOUND", `Subscription ${id} not found`);
    if (await deactivateTarget(tx, subscriptionTargets, actor.tenantId, id, "removed"))
      await recordAudit(tx, actor, {
        action: "claims-subscription.remove",
        entityType: "claims-subscription",
        entityKey: id,
      });
    // inactive now, whether this call or an earlier one deactivated it
    return { ...subscription, status: "inactive" };
  });
}
