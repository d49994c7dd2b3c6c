import Type, { type Static } from "typebox";
import { CodeMessage, Enum, IsoDate, Money, Paging, Text } from "../../platform/http/schemas.js";
import { SERVICE_TYPES } from "../prior-auth/schemas.js";

/** statuses whose items count as approved (duplicates, follow-ups, frequency) */
export const APPROVED_STATUSES = [
  "APPROVED",
  "PARTIALLY_APPROVED",
  "ACCEPTED",
  "PARTIALLY_ACCEPTED",
  "PAID",
] as const;
export const HISTORY_STATUSES = [...APPROVED_STATUSES, "REJECTED", "CANCELLED", "PENDING"] as const;

export const HistoryRecord = Type.Object({
  reference: Text(1, 255, {
    description: "the claim number or the request's transaction id in the insurer's system",
  }),
  service_date: IsoDate(),
  status: Enum(HISTORY_STATUSES),
  provider_cchi_no: Type.Optional(Text(1, 255)),
  diagnosis_codes: Type.Optional(Type.Array(Text(1, 255), { maxItems: 50 })),
  items: Type.Array(
    Type.Object({
      service_code: Text(1, 255),
      nphies_code: Type.Optional(Text(1, 255)),
      service_type: Type.Optional(Enum(SERVICE_TYPES)),
      quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
      unit_amount: Type.Optional(Money()),
    }),
    { minItems: 1, maxItems: 500 },
  ),
});
export type HistoryRecordInput = Static<typeof HistoryRecord>;

export const HistorySyncBody = Type.Object({
  member_id: Text(1, 255),
  records: Type.Array(HistoryRecord, { minItems: 1, maxItems: 1_000 }),
});
export type HistorySyncInput = Static<typeof HistorySyncBody>;

export const HistorySynced = Type.Object({
  member_id: Type.String(),
  received: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  ...CodeMessage,
});

export const MemberParams = Type.Object({ member_id: Text(1, 255) });
export const HistoryQuery = Type.Object({ ...Paging });

export const HistoryPage = Type.Object({
  total_count: Type.Integer(),
  data: Type.Array(
    Type.Object({
      kind: Type.String({ description: "CLAIM or PREAUTH" }),
      reference: Type.String(),
      service_date: Type.String({ format: "date-time" }),
      status: Type.String(),
      approved: Type.Boolean(),
      provider_cchi_no: Type.Union([Type.String(), Type.Null()]),
      diagnosis_codes: Type.Array(Type.String()),
      items: Type.Array(Type.Object({}, { additionalProperties: true })),
    }),
  ),
});
