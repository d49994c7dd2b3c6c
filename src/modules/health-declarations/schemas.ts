import Type, { type Static } from "typebox";
import { CodeMessage, Text } from "../../platform/http/schemas.js";

export const HealthDeclarationCreateBody = Type.Object({
  member_id: Text(1, 255, { description: "member_id of the member (a UUID)" }),
  erp_ph_id: Text(1, 255, { description: "ERP code (ph_erp_id) of the policy holder" }),
  policy_no: Text(1, 255, { description: "a policy of that policy holder" }),
  health_declaration_caption: Type.Optional(Text(1, 4096)),
  health_declaration_caption2: Type.Optional(Text(1, 4096)),
  health_declaration_type: Text(1, 16),
  health_declaration_value: Type.Optional(Text(1, 16)),
});
export type HealthDeclarationCreateInput = Static<typeof HealthDeclarationCreateBody>;

export const HealthDeclarationCreated = Type.Object({
  health_declaration_internal_id: Type.Integer(),
  ...CodeMessage,
});
