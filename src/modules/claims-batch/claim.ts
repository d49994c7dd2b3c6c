import Type, { type Static } from "typebox";
import {
  BATCH_CLAIM_SUB_TYPES,
  BATCH_CLAIM_TYPES,
  BATCH_MARITAL_STATUSES,
  BATCH_PROVIDER_TYPES,
  type BatchClaimInput,
  type BatchClaimItemInput,
  ENCOUNTER_TYPES,
  GENDERS,
  PRE_AUTH_STATUSES,
} from "../../engine/fwa/columns/claim.js";
import { DateOnly, DateTime, Enum, Money } from "../../platform/http/schemas.js";

export type { BatchClaimInput, BatchClaimItemInput };

/**
 * One claim of a batch and its items, as the spec's field tables define them, over the enumerations of the
 * analysis's claim type (src/engine/fwa/columns/claim.ts). Every claim of an upload is checked against this, on its
 * own, as it streams in.
 */

/** identifiers inside a batch only group its claims (spec); any text of 1-255 characters */
const Id = () => Type.String({ minLength: 1, maxLength: 255 });
const Str = (max: number) => Type.String({ maxLength: max });
const Opt = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(schema);
/** ICD-10 with or without the dot (the batch carries no code list: structure only) */
const Icd10 = () =>
  Type.String({ pattern: "^[A-Za-z][0-9][0-9A-Za-z](\\.?[0-9A-Za-z]{1,4})?$", maxLength: 8 });

export const BatchClaimItem = Type.Object({
  claimed_quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  claimed_amount: Money({ description: "per unit" }),
  service_code: Id(),
  service_description: Type.String({ minLength: 1, maxLength: 500 }),
  duration: Opt(Str(255)),
  admission_date: Opt(DateTime()),
  discharge_date: Opt(DateTime()),
  frequency: Opt(Str(50)),
  justification: Opt(Str(2000)),
  erp_item_id: Opt(Id()),
  nphies_code: Opt(Str(255)),
  nphies_type: Opt(Str(50)),
  service_type: Opt(Str(50)),
  tooth_id: Opt(Str(50)),
});

export const BatchClaim = Type.Object({
  claim_id: Id(),
  claim_type: Enum(BATCH_CLAIM_TYPES),
  claim_sub_type: Enum(BATCH_CLAIM_SUB_TYPES),
  is_emergency: Opt(Type.Boolean()),
  type_of_encounter: Opt(Enum(ENCOUNTER_TYPES)),
  claim_date: DateOnly(),
  admission_date: Opt(DateOnly()),
  discharge_date: Opt(DateOnly()),
  doctor_specialty: Opt(Str(255)),
  admission_code: Opt(Str(255)),
  admission_diagnosis: Opt(Str(255)),
  primary_diagnosis_code: Icd10(),
  primary_diagnosis_description: Type.String({ minLength: 1, maxLength: 500 }),
  secondary_diagnosis_codes: Opt(
    Type.Array(
      Type.Object({
        type: Type.Literal("secondary"),
        code: Icd10(),
        name: Type.String({ minLength: 1, maxLength: 500 }),
      }),
      { maxItems: 100 },
    ),
  ),
  member_id: Id(),
  member_dob: DateTime(),
  member_gender: Enum(GENDERS),
  marital_status: Opt(Enum(BATCH_MARITAL_STATUSES)),
  is_vip: Opt(Type.Boolean()),
  provider_id: Id(),
  medical_provider_type: Enum(BATCH_PROVIDER_TYPES),
  ph_id: Id(),
  days_supply: Opt(Type.Integer({ minimum: 1, maximum: 10_000 })),
  is_package: Opt(Type.Boolean()),
  insurance_addition_date: Opt(DateOnly()),
  insurance_start_date: DateOnly(),
  claim_items: Type.Array(BatchClaimItem, { minItems: 1, maxItems: 1_000 }),
  "pre-auth_number": Opt(Str(255)),
  "pre-auth_status": Opt(Enum(PRE_AUTH_STATUSES)),
});

/** what the schema accepts is exactly the analysis's claim type: each must be assignable to the other */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesEngine: Same<Static<typeof BatchClaim>, BatchClaimInput> = true;
const itemSchemaMatchesEngine: Same<Static<typeof BatchClaimItem>, BatchClaimItemInput> = true;
void schemaMatchesEngine;
void itemSchemaMatchesEngine;
