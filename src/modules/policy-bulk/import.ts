import type { Queryable } from "../../platform/db/db.js";
import { dateOf } from "../../platform/http/validation.js";
import { type MemberRow, memberRepo } from "../members/repo.js";
import { patientLinkRepo } from "../policies/repo.js";
import { conflictMessage } from "../policies/service.js";
import type { BulkPatientInput, PatientFailureView } from "./schemas.js";

/**
 * Imports patients into a policy inside the caller's transaction: members are created or updated and
 * linked. A patient that cannot be linked (on the policy already, actively covered by another policy,
 * or naming a network that no longer exists) is reported by index and changes nothing.
 *
 * Concurrency: the members of the list are locked first (FOR UPDATE, in member_id order), so two imports
 * touching one member run one after the other. A member that did not exist at the lock and was created
 * by a concurrent import before our upsert is checked again; if it turns out linked meanwhile, the whole
 * chunk is retried (ImportRaced) rather than half-applied.
 */

export interface ImportOutcome {
  created: number;
  updated: number;
  failures: PatientFailureView[];
}

export class ImportRaced extends Error {
  constructor() {
    super("a concurrent import linked one of these members; the chunk is retried");
    this.name = "ImportRaced";
  }
}

function memberRowOf(patient: BulkPatientInput): MemberRow {
  return {
    member_id: patient.member_id,
    national_id: patient.national_id ?? null,
    gender: patient.gender,
    marital_status: patient.marital_status,
    date_of_birth: new Date(patient.date_of_birth),
    name: patient.name ?? null,
    card: patient.card ?? null,
    email: patient.email ?? null,
    relation: patient.relation ?? null,
    passport: patient.passport ?? null,
    visit_visa_number: patient.visit_visa_number ?? null,
    phone_number: patient.phone_number ?? null,
    address: patient.address ?? null,
    nationality: patient.nationality ?? null,
  };
}

export async function importPatients(
  tx: Queryable,
  tenantId: number,
  policy: { id: number; policy_no: string },
  patients: readonly BulkPatientInput[],
  firstIndex: number,
  networkIds: ReadonlyMap<string, number>,
): Promise<ImportOutcome> {
  const failures: PatientFailureView[] = [];
  const failed = new Set<number>();
  const fail = (i: number, code: string, message: string) => {
    failures.push({
      index: firstIndex + i,
      member_id: (patients[i] as BulkPatientInput).member_id,
      code,
      message,
    });
    failed.add(i);
  };
  const at = (i: number) => patients[i] as BulkPatientInput;
  const coverage = (i: number) => ({
    start_date: dateOf(at(i).effective_start_date),
    end_date: dateOf(at(i).effective_end_date),
  });

  patients.forEach((patient, i) => {
    if (patient.network_code !== undefined && !networkIds.has(patient.network_code))
      fail(i, "E_EPA_015", `Network ${patient.network_code} not found`);
  });

  const locked = new Map(
    (
      await patientLinkRepo.lockMembers(
        tx,
        tenantId,
        patients.map((p) => p.member_id),
      )
    ).map((row) => [row.member_id, row.id]),
  );
  const existing = patients.flatMap((p, i) => (!failed.has(i) && locked.has(p.member_id) ? [i] : []));
  const conflicts = await patientLinkRepo.findConflicts(
    tx,
    policy.id,
    existing.map((i) => ({ member_pk: locked.get(at(i).member_id) as number, ...coverage(i) })),
  );
  for (const conflict of conflicts) {
    const i = existing[conflict.index] as number;
    fail(i, "E_EPA_069", conflictMessage(at(i).member_id, policy.policy_no, conflict));
  }

  const toImport = patients.flatMap((_, i) => (failed.has(i) ? [] : [i]));
  const upserted = new Map(
    (
      await memberRepo.upsertMany(
        tx,
        tenantId,
        toImport.map((i) => memberRowOf(at(i))),
      )
    ).map((row) => [row.member_id, row]),
  );
  const memberOf = (i: number) => upserted.get(at(i).member_id) as { id: number; inserted: boolean };

  const appeared = toImport.filter((i) => !locked.has(at(i).member_id) && !memberOf(i).inserted);
  if (appeared.length > 0) {
    const candidates = appeared.map((i) => ({ member_pk: memberOf(i).id, ...coverage(i) }));
    if ((await patientLinkRepo.findConflicts(tx, policy.id, candidates)).length > 0) throw new ImportRaced();
  }

  const linked = await patientLinkRepo.insertMany(
    tx,
    tenantId,
    policy.id,
    toImport.map((i) => {
      const patient = at(i);
      return {
        member_pk: memberOf(i).id,
        category_code: patient.category_code,
        network_id:
          patient.network_code === undefined ? null : (networkIds.get(patient.network_code) ?? null),
        ...coverage(i),
        is_vip: patient.is_vip ?? false,
        insured_notes: patient.insured_notes ?? null,
        additional_date: patient.additional_date ?? null,
      };
    }),
  );
  if (linked.length !== toImport.length) throw new ImportRaced();

  const created = toImport.filter((i) => memberOf(i).inserted).length;
  failures.sort((a, b) => a.index - b.index);
  return { created, updated: toImport.length - created, failures };
}

/** runs an import, again from the start when a concurrent import raced it (at most `attempts` times) */
export async function retryRaced<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ImportRaced) || attempt >= attempts) throw error;
    }
  }
}
