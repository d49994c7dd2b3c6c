import Type, { type Static } from "typebox";
import { CodeMessage, Enum, IsoDate, Text } from "../../platform/http/schemas.js";

export const POLICY_STATUSES = ["ACTIVE", "INACTIVE", "EXPIRED"] as const;

const PolicyKey = {
  ph_erp_id: Text(1, 50, { description: "ERP code of the policy holder" }),
  policy_no: Text(1, 255),
};

export const AddPatientToPolicy = Type.Object({
  member_id: Text(1, 255),
  network_code: Type.Optional(Text(1, 255, { description: "the network's name" })),
  category_code: Text(1, 255),
  start_date: IsoDate(),
  end_date: IsoDate(),
});

export const PolicyCreateBody = Type.Object({
  ...PolicyKey,
  start_date: IsoDate(),
  end_date: IsoDate(),
  created_date: IsoDate(),
  status: Enum(POLICY_STATUSES),
  add_patient_to_policy: Type.Optional(AddPatientToPolicy),
});
export type PolicyCreateInput = Static<typeof PolicyCreateBody>;

/** the policy's key, in the query string of the update and patient operations */
export const PolicyKeyQuery = Type.Object(PolicyKey);
export const PatientPolicyKeyQuery = Type.Object({ ...PolicyKey, member_id: Text(1, 255) });

export const PolicyUpdateBody = Type.Object({
  start_date: Type.Optional(IsoDate()),
  end_date: Type.Optional(IsoDate()),
  status: Type.Optional(Enum(POLICY_STATUSES)),
  plan_code: Type.Optional(Text(1, 255)),
});
export type PolicyUpdateInput = Static<typeof PolicyUpdateBody>;

export const PolicyView = Type.Object({
  policy_no: Type.String(),
  start_date: Type.String({ description: "DATE" }),
  end_date: Type.String({ description: "DATE" }),
  created_date: Type.String({ description: "DATE" }),
  status: Type.String(),
  ph_erp_id: Type.String(),
  plan_code: Type.Union([Type.String(), Type.Null()]),
  ...CodeMessage,
});

export const PatientPolicyUpdateBody = Type.Object({
  network_code: Type.Optional(Text(1, 255)),
  category_code: Type.Optional(Text(1, 255)),
  start_date: Type.Optional(IsoDate()),
  end_date: Type.Optional(IsoDate()),
  status: Type.Optional(Enum(POLICY_STATUSES)),
});
export type PatientPolicyUpdateInput = Static<typeof PatientPolicyUpdateBody>;

const Nullable = Type.Union([Type.String(), Type.Null()]);

export const PatientPolicyView = Type.Object({
  member_id: Type.String(),
  policy_no: Type.String(),
  ph_erp_id: Type.String(),
  category_code: Type.String(),
  network_code: Nullable,
  start_date: Type.String({ description: "DATE" }),
  end_date: Type.String({ description: "DATE" }),
  status: Type.String(),
  is_vip: Type.Boolean(),
  ...CodeMessage,
});
