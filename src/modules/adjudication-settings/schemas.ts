import Type, { type Static } from "typebox";
import { CodeMessage, Enum } from "../../platform/http/schemas.js";

const Threshold = Type.Number({
  minimum: 0,
  maximum: 1,
  description: "an item whose svc_ai_score reaches this is held for the reviewer instead of approved",
});
const Days = (max: number, description: string) => Type.Integer({ minimum: 0, maximum: max, description });

export const SettingsBody = Type.Object({
  auto_approval_threshold: Type.Optional(Threshold),
  follow_up_days: Type.Optional(
    Days(365, "a consultation within this many days of one at the same provider is a free follow-up"),
  ),
  duplicate_window_days: Type.Optional(
    Days(365, "the same service within this many days of an approved one is a duplicate"),
  ),
  lightweight_retention_days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 3650, description: "lightweight requests are kept this many days" }),
  ),
});
export type SettingsInput = Static<typeof SettingsBody>;

export const SettingsView = Type.Object({
  auto_approval_threshold: Threshold,
  follow_up_days: Type.Integer(),
  duplicate_window_days: Type.Integer(),
  lightweight_retention_days: Type.Integer(),
  ...CodeMessage,
});

export const EditRow = Type.Object({
  code: Type.String({ minLength: 3, maxLength: 8, description: "ICD-10, with or without the dot" }),
  sex: Type.Optional(Enum(["MALE", "FEMALE"] as const)),
  min_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 150 })),
  max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 150 })),
  maternity: Type.Optional(Type.Boolean()),
  newborn: Type.Optional(Type.Boolean()),
});
export type EditInput = Static<typeof EditRow>;

export const EditsImportBody = Type.Union([
  Type.String({ description: "CMS MCE edits as TSV: MCE_Edit_Type, ICD_Code_Type and ICD_Code columns" }),
  Type.Array(EditRow, { minItems: 1, maxItems: 200_000 }),
]);
export const EditsImportQuery = Type.Object({
  mode: Type.Optional(Enum(["merge", "replace"] as const, { description: "merge (default) or replace" })),
});
export const EditsImported = Type.Object({
  imported: Type.Integer(),
  skipped: Type.Integer(),
  ...CodeMessage,
});

const FlagThreshold = Type.Number({
  exclusiveMinimum: 0,
  maximum: 1,
  description: "an item of a claims batch whose combined FWA score reaches this is flagged (default 0.5)",
});
export const FwaSettingsBody = Type.Object({ flag_threshold: Type.Optional(FlagThreshold) });
export type FwaSettingsInput = Static<typeof FwaSettingsBody>;
export const FwaSettingsView = Type.Object({ flag_threshold: FlagThreshold, ...CodeMessage });
