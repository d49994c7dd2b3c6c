import Type, { type Static } from "typebox";
import {
  CodeMessage,
  DateTime,
  Enum,
  GENDERS,
  Identifier,
  MARITAL_STATUSES,
  Text,
} from "../../platform/http/schemas.js";
import { PATTERN_TEXT } from "../../platform/http/validation.js";
import { MemberOptionalFields } from "../members/schemas.js";

/** the synchronous import runs in one request and one transaction; above this, the asynchronous one */
export const SYNC_MAX_PATIENTS = 5_000;
export const ASYNC_MAX_PATIENTS = 200_000;

export const BulkPatient = Type.Object({
  member_id: Identifier(255),
  gender: Enum(GENDERS),
  marital_status: Enum(MARITAL_STATUSES),
  date_of_birth: DateTime(),
  category_code: Text(1, 255),
  effective_start_date: DateTime(),
  effective_end_date: DateTime(),
  ...MemberOptionalFields,
  national_id: Type.Optional(Identifier(255)),
  // the bulk import allows a longer address than member create does
  address: Type.Optional(Text(1, 500)),
  network_code: Type.Optional(Text(1, 255, { description: "the network's name" })),
  is_vip: Type.Optional(Type.Boolean({ default: false })),
  insured_notes: Type.Optional(Text(0, 500)),
  additional_date: Type.Optional(DateTime()),
});
export type BulkPatientInput = Static<typeof BulkPatient>;

const bulkBody = (maxItems: number) =>
  Type.Object({
    policy_no: Text(1, 255),
    ph_erp_id: Text(1, 50),
    patients: Type.Array(BulkPatient, { minItems: 1, maxItems }),
  });
export const SyncBulkBody = bulkBody(SYNC_MAX_PATIENTS);
export const AsyncBulkBody = bulkBody(ASYNC_MAX_PATIENTS);
export type BulkInput = Static<typeof SyncBulkBody>;

export const PatientFailure = Type.Object({
  index: Type.Integer({ description: "position of the patient in the request's patients array" }),
  member_id: Type.String(),
  code: Type.String(),
  message: Type.String(),
});
export type PatientFailureView = Static<typeof PatientFailure>;

const Counts = {
  received: Type.Integer(),
  created: Type.Integer({ description: "patients whose member was created, and linked" }),
  updated: Type.Integer({ description: "patients whose existing member was updated, and linked" }),
  failed: Type.Integer({ description: "patients not imported; see errors" }),
};

export const BulkSummary = Type.Object({
  ...Counts,
  errors: Type.Array(PatientFailure),
  ...CodeMessage,
});

export const BulkAccepted = Type.Object({
  job_id: Type.String(),
  message: Type.String(),
  status_url: Type.String({ description: "where the job's progress and summary are read" }),
});

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
PATTERN_TEXT[UUID] = "must be a job id (a UUID)";
export const BulkJobParams = Type.Object({ job_id: Type.String({ pattern: UUID }) });

export const BulkJobView = Type.Object({
  job_id: Type.String(),
  status: Type.String({ description: "queued, running, completed or failed" }),
  ph_erp_id: Type.String(),
  policy_no: Type.String(),
  ...Counts,
  processed: Type.Integer({ description: "patients handled so far" }),
  errors: Type.Array(PatientFailure, { description: "the first 1,000 failures" }),
  errors_truncated: Type.Boolean(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  started_at: Type.Union([Type.String(), Type.Null()]),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  ...CodeMessage,
});
