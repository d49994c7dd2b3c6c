import Type, { type Static } from "typebox";
import { DELIVERY_STATUSES } from "../../platform/events/deliveries.js";
import { HOOK_TYPES } from "../../platform/events/outbox.js";
import { Enum, Paging, Text } from "../../platform/http/schemas.js";

export const WebhookCreateBody = Type.Object({
  webhook_url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: "an http(s) URL that receives the HTTP POST deliveries",
  }),
  hook_type: Enum(HOOK_TYPES, {
    description:
      "the events received: PRE_AUTH_RESULT, COMMUNICATION, REOPENED, REFERRED and POLICY each their own; " +
      "PRE_AUTH and CLAIM every prior-authorization event of that transaction type; BOTH of either",
  }),
  secret_token: Type.Optional(
    Type.Union([
      Text(1, 512, {
        description:
          "HMAC key of the webhook-signature header: whsec_<base64>, or any other text used as UTF-8",
      }),
      Type.Null(),
    ]),
  ),
});
export type WebhookCreateInput = Static<typeof WebhookCreateBody>;

export const Webhook = Type.Object({
  id: Type.Integer(),
  webhook_url: Type.String(),
  hook_type: Type.String(),
  secret_token: Type.Union([Type.String(), Type.Null()]),
  is_active: Type.Boolean(),
  created_at: Type.String({ format: "date-time" }),
});
export type WebhookView = Static<typeof Webhook>;

export const WebhookList = Type.Object({ data: Type.Array(Webhook) });

export const WebhookIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, description: "the webhook's id" }),
});

export const DeliveryQuery = Type.Object({
  status: Type.Optional(Enum(DELIVERY_STATUSES)),
  ...Paging,
});
export type DeliveryFilter = Static<typeof DeliveryQuery>;

const When = Type.String({ format: "date-time" });
const MaybeWhen = Type.Union([When, Type.Null()]);

export const DeliveryPage = Type.Object({
  total_count: Type.Integer(),
  data: Type.Array(
    Type.Object({
      delivery_id: Type.Integer(),
      event_id: Type.String(),
      event_type: Type.String(),
      status: Enum(DELIVERY_STATUSES, {
        description: "pending (an attempt is due), delivered (2xx), failed (given up, or 410), cancelled",
      }),
      created_at: When,
      completed_at: MaybeWhen,
      next_attempt_at: Type.Union([When, Type.Null()], { description: "set while pending" }),
      attempt_count: Type.Integer(),
      attempts: Type.Array(
        Type.Object({
          attempt: Type.Integer(),
          attempted_at: When,
          status_code: Type.Union([Type.Integer(), Type.Null()]),
          latency_ms: Type.Integer(),
          error: Type.Union([Type.String(), Type.Null()], {
            description:
              "null on success; otherwise a few words: HTTP <status>, a timeout, a connection error, or a " +
              "refused address (never any part of the answer's body)",
          }),
          next_attempt_at: MaybeWhen,
        }),
      ),
    }),
  ),
});

export const TestEventAccepted = Type.Object({
  event_id: Type.String(),
  delivery_id: Type.Integer(),
  message: Type.String(),
});
