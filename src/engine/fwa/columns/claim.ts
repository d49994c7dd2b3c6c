/**
 * A claim of a batch as the analysis reads it, with the batch format's enumerations. The batch service
 * builds its upload schema from these (src/modules/claims-batch/claim.ts), and checks there that what its
 * schema accepts is exactly this type.
 */

export const BATCH_CLAIM_TYPES = ["PROFESSIONAL", "INSTITUTIONAL"] as const;
export const BATCH_CLAIM_SUB_TYPES = ["IN_PATIENT", "OUT_PATIENT", "EMERGENCY"] as const;
export const ENCOUNTER_TYPES = ["EMERGENCY", "URGENT", "ROUTINE"] as const;
export const BATCH_MARITAL_STATUSES = ["SINGLE", "MARRIED", "DIVORCED", "WIDOWED"] as const;
export const BATCH_PROVIDER_TYPES = ["CLINIC", "HOSPITAL", "PHARMACY", "LABORATORY", "RADIOLOGY"] as const;
export const PRE_AUTH_STATUSES = ["APPROVED", "REJECTED", "PENDING"] as const;
export const GENDERS = ["MALE", "FEMALE"] as const;

export interface BatchClaimItemInput {
  claimed_quantity: number;
  /** per unit, riyals with at most two decimals */
  claimed_amount: number;
  service_code: string;
  service_description: string;
  duration?: string;
  /** DATETIME */
  admission_date?: string;
  discharge_date?: string;
  frequency?: string;
  justification?: string;
  erp_item_id?: string;
  nphies_code?: string;
  nphies_type?: string;
  service_type?: string;
  tooth_id?: string;
}

export interface BatchClaimInput {
  claim_id: string;
  claim_type: (typeof BATCH_CLAIM_TYPES)[number];
  claim_sub_type: (typeof BATCH_CLAIM_SUB_TYPES)[number];
  is_emergency?: boolean;
  type_of_encounter?: (typeof ENCOUNTER_TYPES)[number];
  /** DATE */
  claim_date: string;
  admission_date?: string;
  discharge_date?: string;
  doctor_specialty?: string;
  admission_code?: string;
  admission_diagnosis?: string;
  primary_diagnosis_code: string;
  primary_diagnosis_description: string;
  secondary_diagnosis_codes?: { type: "secondary"; code: string; name: string }[];
  member_id: string;
  /** DATETIME */
  member_dob: string;
  member_gender: (typeof GENDERS)[number];
  marital_status?: (typeof BATCH_MARITAL_STATUSES)[number];
  is_vip?: boolean;
  provider_id: string;
  medical_provider_type: (typeof BATCH_PROVIDER_TYPES)[number];
  ph_id: string;
  days_supply?: number;
  is_package?: boolean;
  insurance_addition_date?: string;
  insurance_start_date: string;
  claim_items: BatchClaimItemInput[];
  "pre-auth_number"?: string;
  "pre-auth_status"?: (typeof PRE_AUTH_STATUSES)[number];
}
