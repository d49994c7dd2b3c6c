import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { BatchSettings } from "../config.js";
import type { BatchClaimInput } from "../modules/claims-batch/claim.js";
import { type BatchRow, batchRepo } from "../modules/claims-batch/repo.js";
import { submitBatch } from "../modules/claims-batch/service.js";
import type { TenantActor } from "../platform/audit/audit.js";
import type { Db } from "../platform/db/db.js";
import type { JobQueue } from "../platform/jobs/queue.js";
import { contractPrice, PROVIDERS, SERVICES, type ServiceCode } from "./catalogue.js";
import { type DemoMember, randomSource } from "./people.js";
import type { Tally } from "./tally.js";

/** The demo's claims batch: a month of claims over every provider, one of which bills far above the rest. */

export const DEMO_BATCH_REFERENCE = "DEMO-BATCH-2026";
/** the day-surgery centre whose long, costly stays rank it first for audit */
export const OUTLIER_PROVIDER = "CCHI-10008";
/** how long the demo waits for the analysis before it reports the batch as it is */
const WAIT_MS = 120_000;

type Diagnosis = readonly [code: string, description: string];

// biome-ignore format: one diagnosis to a line
const VISIT_DIAGNOSES: readonly Diagnosis[] = [
  ["J06.9", "Acute upper respiratory infection, unspecified"],
  ["J02.9", "Acute pharyngitis, unspecified"],
  ["E11.9", "Type 2 diabetes mellitus without complications"],
  ["I10", "Essential (primary) hypertension"],
  ["M54.5", "Low back pain"],
  ["K21.9", "Gastro-oesophageal reflux disease without oesophagitis"],
];
const STAY_DIAGNOSES: readonly Diagnosis[] = [
  ["K35.80", "Acute appendicitis"],
  ["J18.9", "Pneumonia, unspecified organism"],
  ["K80.20", "Calculus of gallbladder without cholecystitis"],
];

const day = (n: number): string => `2026-03-${String(n).padStart(2, "0")}`;
const cents = (amount: number): number => Math.round(amount * 100) / 100;

/** the batch as a client uploads it: about 300 claims of March 2026 by the policy's members */
export function demoBatch(members: readonly DemoMember[]) {
  const random = randomSource(20_260_331);
  const insured = members.filter((member) => member.policyYear === 2026);
  const claims: BatchClaimInput[] = [];
  const claim = (provider: string, date: number, fields: Partial<BatchClaimInput>): BatchClaimInput => {
    const member = insured[claims.length % insured.length] as DemoMember;
    const diagnosis = random.pick(VISIT_DIAGNOSES);
    const built: BatchClaimInput = {
      claim_id: `CLM-2026-${String(claims.length + 1).padStart(5, "0")}`,
      claim_type: "PROFESSIONAL",
      claim_sub_type: "OUT_PATIENT",
      claim_date: day(date),
      primary_diagnosis_code: diagnosis[0],
      primary_diagnosis_description: diagnosis[1],
      member_id: member.memberId,
      member_dob: `${member.born}T00:00:00.000Z`,
      member_gender: member.gender,
      marital_status: member.maritalStatus,
      provider_id: provider,
      medical_provider_type: PROVIDERS.find((p) => p.cchi_no === provider)?.batchType ?? "CLINIC",
      ph_id: "PH-ALNOOR",
      insurance_start_date: "2026-01-01",
      claim_items: [],
      ...fields,
    };
    claims.push(built);
    return built;
  };
  /** an item at the provider's contract price, give or take 3 % */
  const item = (provider: string, code: ServiceCode, quantity = 1) => ({
    claimed_quantity: quantity,
    claimed_amount: cents(contractPrice(provider, code) * (0.97 + 0.06 * random.next())),
    service_code: code,
    service_description: SERVICES[code].description,
  });
  const stay = (provider: string, days: number, amount: number) => {
    const admitted = random.int(1, 31 - days);
    const diagnosis = random.pick(STAY_DIAGNOSES);
    return claim(provider, admitted + days, {
      claim_type: "INSTITUTIONAL",
      claim_sub_type: "IN_PATIENT",
      admission_date: day(admitted),
      discharge_date: day(admitted + days),
      primary_diagnosis_code: diagnosis[0],
      primary_diagnosis_description: diagnosis[1],
      claim_items: [
        {
          claimed_quantity: 1,
          claimed_amount: cents(amount),
          service_code: "DRG-STAY",
          service_description: "Inpatient stay",
        },
      ],
    });
  };

  for (let n = 0; n < 25; n++) stay(OUTLIER_PROVIDER, random.int(12, 16), 30_000 + random.int(0, 4_000));
  for (const provider of ["CCHI-10001", "CCHI-10003", "CCHI-10004"])
    for (let n = 0; n < 12; n++) stay(provider, random.int(2, 4), 4_000 + random.int(0, 2_500));
  const clinics = PROVIDERS.filter((p) => p.services.some((code) => code.startsWith("CONS-")));
  for (let n = 0; n < 220; n++) {
    const provider = clinics[n % clinics.length] as (typeof PROVIDERS)[number];
    const extras = provider.services.filter((code) => !code.startsWith("CONS-") && !code.startsWith("MED-"));
    const items = [
      item(
        provider.cchi_no,
        n % 4 === 0 && provider.services.includes("CONS-SPEC") ? "CONS-SPEC" : "CONS-GP",
      ),
    ];
    if (random.next() < 0.6) items.push(item(provider.cchi_no, random.pick(extras)));
    claim(provider.cchi_no, random.int(1, 31), { claim_items: items });
  }
  for (let n = 0; n < 15; n++)
    claim("CCHI-10006", random.int(1, 31), {
      claim_items: [
        item("CCHI-10006", random.pick(["LAB-CBC", "LAB-HBA1C", "LAB-LIPID", "LAB-TSH"] as const)),
      ],
    });
  for (let n = 0; n < 20; n++)
    claim("CCHI-10007", random.int(1, 31), {
      days_supply: 30,
      claim_items: [item("CCHI-10007", n % 2 ? "MED-METF" : "MED-AMOX", random.int(1, 2))],
    });
  // a consultation billed at a hundred times its price is flagged; a claim before its cover is rejected
  claim("CCHI-10002", 18, { claim_items: [{ ...item("CCHI-10002", "CONS-GP"), claimed_amount: 15_000 }] });
  claim("CCHI-10009", 20, {
    insurance_start_date: "2026-04-01",
    claim_items: [item("CCHI-10009", "CONS-GP")],
  });

  return {
    batch_reference_id: DEMO_BATCH_REFERENCE,
    description: "Al Noor Trading Company: claims of March 2026",
    start_date: "2026-03-01",
    end_date: "2026-03-31",
    claims,
  };
}

const findByReference = (db: Db, tenantId: number): Promise<BatchRow | undefined> =>
  batchRepo.findByReference(db, tenantId, DEMO_BATCH_REFERENCE);

export interface BatchDeps {
  db: Db;
  jobs: JobQueue;
  batches: BatchSettings;
  /** whether a worker will analyse it while we wait (none does on an API-only node) */
  wait: boolean;
}

/** submits the batch unless the tenant has it, then waits until its analysis is over (when a worker runs) */
export async function seedBatch(
  deps: BatchDeps,
  actor: TenantActor,
  tally: Tally,
  members: readonly DemoMember[],
): Promise<BatchRow> {
  if ((await findByReference(deps.db, actor.tenantId)) !== undefined) tally.count("claims batches", 0, 1);
  else {
    const body = Readable.from([Buffer.from(JSON.stringify(demoBatch(members)))]);
    await tally.ensure("claims batches", async () => {
      const upload = await submitBatch(deps.db, deps.jobs, deps.batches, actor, { body, gzip: false });
      if (!upload.accepted)
        throw new Error(`the demo batch was refused: ${JSON.stringify(upload.body.error.details)}`);
    });
  }
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const batch = await findByReference(deps.db, actor.tenantId);
    if (batch === undefined) throw new Error(`batch ${DEMO_BATCH_REFERENCE} vanished`);
    const over = batch.status === "completed" || batch.status === "failed";
    if (over || !deps.wait || Date.now() > deadline) return batch;
    await sleep(250);
  }
}
