import Type, { type Static } from "typebox";
import {
  CodeMessage,
  DateTime,
  Enum,
  GENDERS,
  Identifier,
  MARITAL_STATUSES,
  Money,
  Text,
} from "../../platform/http/schemas.js";
import { SupportingInfoFields } from "./supporting-info/schemas.js";

export const CLAIM_TYPES = ["INSTITUTIONAL", "PROFESSIONAL", "PHARMACY", "DENTAL", "OPTICAL"] as const;
export const CLAIM_SUB_TYPES = ["IN_PATIENT", "OUT_PATIENT", "EMERGENCY"] as const;
export const TRANSACTION_TYPES = ["PREAUTH", "CLAIM"] as const;
export const SERVICE_TYPES = [
  "AMBULATORY",
  "CONSULTATION",
  "PHARMACEUTICAL",
  "DEVICE",
  "OPTICAL",
  "DENTAL",
  "BABY_FORMULA",
] as const;
export const FREQUENCIES = [
  "OD",
  "BID",
  "Q12H",
  "TID",
  "Q8H",
  "QID",
  "Q6H",
  "QD",
  "Q24H",
  "QOD",
  "QM",
  "Q4H",
] as const;
export const REVIEWER_STATUSES = ["ACCEPTED", "PARTIALLY_ACCEPTED", "REJECTED", "REFERRED"] as const;
export const BUNDLE_STATUSES = ["COMPLETED", "PENDING", "PROCESSING", "REFERRED"] as const;
export const REOPEN_REASONS = [
  "CORRECTION",
  "ADJUDICATION",
  "MISCALCULATION",
  "BENEFIT",
  "AUDIT",
  "CANCEL",
  "OTHER",
] as const;

const Optional255 = () => Type.Optional(Text(0, 255));
const Code = (description: string) => Type.Integer({ minimum: 0, maximum: 9_999_999, description });

export const Diagnosis = Type.Object({
  type: Enum(["primary", "secondary"] as const),
  code: Text(1, 255, { description: "ICD-10, with or without the dot" }),
  name: Type.Optional(Text(0, 255)),
});

export const Item = Type.Object({
  service_code: Text(1, 255),
  service_description: Text(1, 255),
  nphies_code: Text(1, 255),
  nphies_type: Enum(SERVICE_TYPES),
  service_type: Enum(SERVICE_TYPES),
  claimed_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 })),
  claimed_amount: Type.Optional(Money({ description: "per unit; default 0" })),
  duration: Type.Optional(Text(0, 255, { description: "free text: 7, 7 days, 2 weeks, 1 month" })),
  admission_date: Type.Optional(DateTime()),
  discharge_date: Type.Optional(DateTime()),
  frequency: Type.Optional(Enum(FREQUENCIES)),
  justification: Optional255(),
  erp_item_id: Optional255(),
  benefit_code: Type.Optional(Code("the item's benefit in the member's category")),
  benefit_description: Optional255(),
  sub_benefit_code: Type.Optional(Code("the item's sub-benefit under its benefit")),
  sub_benefit_description: Optional255(),
  serial_number: Optional255(),
});
export type ItemInput = Static<typeof Item>;

/** the spec lists these fields for the PRE_AUTH_RESULT event; a request may carry them */
export const ENCOUNTER_FIELDS = [
  "encounter_id",
  "encounter_status",
  "encounter_class",
  "encounter_priority",
  "encounter_start_date",
  "encounter_end_date",
  "encounter_arrival_code",
  "encounter_department",
  "encounter_triage_category",
  "encounter_triage_date",
  "encounter_death_cause",
  "encounter_admit_source",
  "encounter_length_of_stay",
  "encounter_admission",
  "encounter_discharge",
] as const;

export const Encounter = Type.Object(
  Object.fromEntries(ENCOUNTER_FIELDS.map((field) => [field, Type.Optional(Text(0, 255))])) as Record<
    (typeof ENCOUNTER_FIELDS)[number],
    ReturnType<typeof Optional255>
  >,
);

export const CreateBody = Type.Object({
  authorization_number: Identifier(255, { description: "may repeat across follow-up requests" }),
  transaction_id: Identifier(255, { description: "unique per request: the idempotency key" }),
  transaction_type: Type.Optional(Enum(TRANSACTION_TYPES)),
  policy_no: Text(1, 255),
  ph_erp_id: Text(1, 255),
  related_authorization_number: Optional255(),
  medical_provider_cchi_no: Text(1, 255),
  member_id: Text(1, 255),
  member_dob: DateTime(),
  member_gender: Enum(GENDERS),
  marital_status: Enum(MARITAL_STATUSES),
  treatment_date: DateTime(),
  request_date: DateTime(),
  claim_type: Enum(CLAIM_TYPES),
  claim_sub_type: Enum(CLAIM_SUB_TYPES),
  is_emergency: Type.Optional(Type.Boolean()),
  is_maternity: Type.Optional(Type.Boolean()),
  is_new_born: Type.Optional(Type.Boolean()),
  benefit_code: Type.Optional(Code("the request's benefit, for items that name none")),
  benefit_description: Optional255(),
  diagnoses: Type.Array(Diagnosis, { minItems: 1, maxItems: 100 }),
  items: Type.Array(Item, { minItems: 1, maxItems: 500 }),
  doctor_id: Optional255(),
  doctor_speciality: Optional255(),
  doctor_name: Optional255(),
  approval_remarks: Optional255(),
  additional_remarks: Optional255(),
  provider_comment: Optional255(),
  currency: Optional255(),
  currency_rate: Type.Optional(Type.Number({ minimum: 0 })),
  nphies_bundle_id: Optional255(),
  provider_system_id: Optional255(),
  erp_user_id: Optional255(),
  price_list_level: Optional255(),
  encounter: Type.Optional(Encounter),
  supporting_info: Type.Optional(Type.Array(Type.Object(SupportingInfoFields), { maxItems: 100 })),
});
export type CreateInput = Static<typeof CreateBody>;

const RejectionReason = Type.Object({
  code: Type.String({ description: "the engine's reason code" }),
  nphies_code: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ItemResult = Type.Object({
  service_code: Type.String(),
  item_erp_id: Nullable(Type.String()),
  approved: Type.Boolean(),
  approved_quantity: Type.Integer(),
  approved_duration: Nullable(Type.String({ description: "days" })),
  decision: Type.String({ description: "APPROVED, PARTIALLY_APPROVED, REJECTED or PENDING_REVIEW" }),
  request_amount: Type.Number(),
  approved_amount: Type.Number(),
  price_rejected_amount: Type.Number(),
  rejected_amount: Type.Number(),
  net_payable: Type.Number(),
  svc_ai_score: Type.Number(),
  svc_ai_alert: Nullable(Type.String()),
  rejection_reason: Type.Array(RejectionReason),
});

export const Created = Type.Object({
  pre_auth_internal_id: Type.Integer(),
  status: Type.String({ description: "COMPLETED: the engine has finished" }),
  authorization_number: Type.String(),
  transaction_id: Type.String(),
  note: Type.String(),
  request_alerts: Type.Array(Type.String()),
  items_results: Type.Array(ItemResult),
});

export const TransactionParams = Type.Object({ transaction_id: Text(1, 255) });

const ReviewerReason = Type.Object({ code: Text(1, 255), message: Type.Optional(Text(0, 1000)) });

export const UpdateBody = Type.Object({
  status: Enum(REVIEWER_STATUSES),
  erp_reviewer_id: Text(1, 255, { description: "a reviewer user's username" }),
  approval_remarks: Type.Optional(Text(0, 1000)),
  refferal_remarks: Type.Optional(Text(0, 1000, { description: "spelled so by the spec" })),
  internal_referral_notes: Type.Optional(Text(0, 1000)),
  internal_notes: Type.Optional(Text(0, 1000)),
  referral_cchi_code: Type.Optional(Text(1, 255)),
  referral_valid_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  items: Type.Optional(
    Type.Array(
      Type.Object({
        status: Enum(["ACCEPTED", "REJECTED"] as const),
        approved_quantity: Type.Optional(Type.Integer({ minimum: 0 })),
        approved_amount: Type.Optional(Money()),
        erp_item_id: Text(1, 255),
        reasons: Type.Optional(Type.Array(ReviewerReason, { maxItems: 50 })),
      }),
      { maxItems: 500 },
    ),
  ),
});
export type UpdateInput = Static<typeof UpdateBody>;

export const BundleSyncBody = Type.Object({
  response_bundle_id: Text(1, 255),
  response_bundle_status: Enum(BUNDLE_STATUSES),
  response_bundle_date: DateTime(),
});
export type BundleSyncInput = Static<typeof BundleSyncBody>;

export const ReopenBody = Type.Object({
  nphies_reopen_reason: Enum(REOPEN_REASONS),
  nphies_reopen_at: DateTime(),
  username: Text(1, 255),
});
export type ReopenInput = Static<typeof ReopenBody>;

export const Message = Type.Object({ ...CodeMessage });
