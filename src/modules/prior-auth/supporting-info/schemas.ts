import Type, { type Static } from "typebox";
import { CodeMessage, DateTime, Enum, Identifier, Text } from "../../../platform/http/schemas.js";

export const SUPPORTING_INFO_CODES = [
  "INFO",
  "ONSET",
  "ATTACHMENT",
  "MISSING_TOOTH",
  "EMPLOYMENT_IMPACTED",
  "LAB_TEST",
  "REASON_FOR_VISIT",
  "DAYS_SUPPLY",
  "VITAL_SIGN_WEIGHT",
  "VITAL_SIGN_SYSTOLIC",
  "VITAL_SIGN_DIASTOLIC",
  "VITAL_SIGN_HEIGHT",
  "ICU_HOURS",
  "VENTILATION_HOURS",
  "CHIEF_COMPLAINT",
  "BIRTH_WEIGHT",
  "TEMPERATURE",
  "PULSE",
  "OXYGEN_SATURATION",
  "RESPIRATORY_RATE",
  "MORPHOLOGY",
  "LAST_MENSTRUAL_PERIOD",
  "TREATMENT_PLAN",
  "PATIENT_HISTORY",
  "PHYSICAL_EXAMINATION",
  "HISTORY_OF_PRESENT_ILLNESS",
  "ADMISSION_WEIGHT",
  "ESTIMATED_LENGTH_OF_STAY",
  "INVESTIGATION_RESULT",
  "SIGNIFICANT_SIGNS",
  "GENERAL_EXAMINATION",
  "VITAL_INFORMATION",
  "OTHER",
] as const;

const Url = () =>
  Type.String({ maxLength: 500, pattern: "^https?://\\S+$", description: "an HTTP or HTTPS URL" });

const Common = {
  sequence_number: Type.Optional(Type.Integer({ minimum: 1, description: "orders the entries" })),
  type: Type.Optional(Text(0, 255)),
  code: Type.Optional(Enum(SUPPORTING_INFO_CODES)),
  value: Type.Optional(
    Text(0, 1000, { description: "for ATTACHMENT on a prior authorization: the file's content in base64" }),
  ),
  unit: Type.Optional(Text(0, 50)),
  value_url: Type.Optional(Url()),
};

/** an entry of a prior authorization, as sent inline in its create body too */
export const SupportingInfoFields = {
  ...Common,
  file_name: Type.Optional(Text(0, 255, { description: "the original name of an attachment" })),
  start_date: DateTime(),
  end_date: DateTime(),
};

export const ForPreauthBody = Type.Object({
  transaction_id: Identifier(255, { description: "the prior authorization's transaction_id" }),
  ...SupportingInfoFields,
});
export type ForPreauthInput = Static<typeof ForPreauthBody>;

export const ForClaimBody = Type.Object({
  claim_number: Identifier(255, { description: "the transaction_id of a request submitted as a CLAIM" }),
  ...Common,
  start_date: Type.Optional(DateTime()),
  end_date: Type.Optional(DateTime()),
});
export type ForClaimInput = Static<typeof ForClaimBody>;

/** what is stored of an entry, whichever way it came */
export type SupportingInfoInput = Omit<ForPreauthInput, "transaction_id" | "start_date" | "end_date"> & {
  start_date?: string | undefined;
  end_date?: string | undefined;
};

export const SupportingInfoCreated = Type.Object({ id: Type.Integer(), ...CodeMessage });
