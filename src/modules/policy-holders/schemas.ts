import Type, { type Static } from "typebox";
import { CodeMessage, Enum, Identifier, INSURANCE_TYPES, Text } from "../../platform/http/schemas.js";

export const PolicyHolderCreateBody = Type.Object({
  ph_erp_id: Identifier(50, { description: "the holder's ERP code; unique" }),
  name: Text(1, 255, { description: "unique" }),
  insurance_type: Enum(INSURANCE_TYPES),
  province: Type.Optional(Text(1, 255)),
  registration_number: Type.Optional(Text(1, 255, { description: "unique when given" })),
});
export type PolicyHolderCreateInput = Static<typeof PolicyHolderCreateBody>;

export const PolicyHolderUpdateBody = Type.Object({
  identifier: Text(1, 50, { description: "ph_erp_id of the holder to update" }),
  name: Type.Optional(PolicyHolderCreateBody.properties.name),
  province: PolicyHolderCreateBody.properties.province,
  registration_number: PolicyHolderCreateBody.properties.registration_number,
  insurance_type: Type.Optional(PolicyHolderCreateBody.properties.insurance_type),
});
export type PolicyHolderUpdateInput = Static<typeof PolicyHolderUpdateBody>;

export const PhErpIdParams = Type.Object({ ph_erp_id: Text(1, 50) });

export const PolicyHolderCreated = Type.Object({ ERPCode: Type.String(), ...CodeMessage });

const Nullable = Type.Union([Type.String(), Type.Null()]);

export const PolicyHolderData = Type.Object({
  ph_erp_id: Type.String(),
  name: Type.String(),
  insurance_type: Nullable,
  province: Nullable,
  registration_number: Nullable,
});

export const PolicyHolderUpdated = Type.Object({ message: Type.String(), data: PolicyHolderData });
export const PolicyHolderFound = Type.Object({ ...CodeMessage, data: PolicyHolderData });
