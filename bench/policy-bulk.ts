/**
 * Bulk patient imports against a running server: the synchronous import of 3,000 patients (new members,
 * then the same members again, which updates them) and the asynchronous import of 50,000, timed from
 * the POST to the job's completion as GET bulk-job reports it.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export interface BulkFigure {
  scenario: string;
  patients: number;
  seconds: number;
  patientsPerSecond: number;
  budget: string;
  outcome: string;
}

function patient(memberId: string, i: number) {
  return {
    member_id: memberId,
    gender: i % 2 ? "MALE" : "FEMALE",
    marital_status: "MARRIED",
    date_of_birth: "1985-06-15T00:00:00.000Z",
    category_code: i % 3 ? "A" : "B",
    effective_start_date: "2026-01-01T00:00:00.000Z",
    effective_end_date: "2026-12-31T00:00:00.000Z",
    name: `Bench Patient ${i}`,
    national_id: `1${String(i).padStart(9, "0")}`,
    email: `p${i}@example.sa`,
    relation: "SELF",
    phone_number: "+966500000000",
    nationality: "SA",
  };
}

/** the server's peak resident memory so far (Linux), in MB */
export const peakRssMb = (pid: number | undefined) => statusMb(pid, "VmHWM");
export const rssMb = (pid: number | undefined) => statusMb(pid, "VmRSS");

/** a memory figure of /proc/<pid>/status, in MB (undefined off Linux or when the process is gone) */
function statusMb(pid: number | undefined, field: "VmHWM" | "VmRSS"): number | undefined {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export async function benchBulkImports(base: string, headers: Record<string, string>): Promise<BulkFigure[]> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  await post("/policy-holder/create", {
    ph_erp_id: "BENCH-PH",
    name: "Bench Holder",
    insurance_type: "NORMAL",
  });
  // POL-SYNC-2027 covers the year after POL-SYNC, so its members may be on both (a renewal)
  for (const [policyNo, year] of [
    ["POL-SYNC", 2026],
    ["POL-SYNC-2027", 2027],
    ["POL-ASYNC", 2026],
  ] as const)
    await post("/policy/create", {
      policy_no: policyNo,
      ph_erp_id: "BENCH-PH",
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
      created_date: `${year - 1}-12-01`,
      status: "ACTIVE",
    });

  const figures: BulkFigure[] = [];
  const timed = async (scenario: string, budget: string, patients: number, run: () => Promise<string>) => {
    const started = performance.now();
    const outcome = await run();
    const seconds = (performance.now() - started) / 1000;
    figures.push({
      scenario,
      patients,
      seconds: Number(seconds.toFixed(2)),
      patientsPerSecond: Math.round(patients / seconds),
      budget,
      outcome,
    });
  };

  const syncImport = (label: string, policyNo: string, patients: object[], counted: "created" | "updated") =>
    timed(`POST policy/bulk-patient-to-policy, 3,000 ${label}`, "one request (< ~3,000)", 3_000, async () => {
      const res = await post("/policy/bulk-patient-to-policy", {
        ph_erp_id: "BENCH-PH",
        policy_no: policyNo,
        patients,
      });
      return `${res.status} ${counted} ${res.body[counted]}, failed ${res.body.failed}`;
    });

  const syncPatients = Array.from({ length: 3_000 }, (_, i) => patient(`SYNC-${i}`, i));
  await syncImport("new members", "POL-SYNC", syncPatients, "created");
  // the same members into the next year's policy: all updated
  const renewed = syncPatients.map((p) => ({
    ...p,
    effective_start_date: "2027-01-01T00:00:00.000Z",
    effective_end_date: "2027-12-31T00:00:00.000Z",
  }));
  await syncImport("existing members", "POL-SYNC-2027", renewed, "updated");

  const asyncPatients = Array.from({ length: 50_000 }, (_, i) => patient(`ASYNC-${i}`, i));
  await timed("async-bulk-patient-to-policy, 50,000, POST to job completed", "< 60 s", 50_000, async () => {
    const accepted = await post("/policy/async-bulk-patient-to-policy", {
      ph_erp_id: "BENCH-PH",
      policy_no: "POL-ASYNC",
      patients: asyncPatients,
    });
    if (accepted.status !== 202) return `refused: ${accepted.status} ${JSON.stringify(accepted.body)}`;
    for (;;) {
      await sleep(250);
      const job = (await (
        await fetch(`${base}/policy/bulk-job/${accepted.body.job_id}`, { headers })
      ).json()) as Record<string, unknown>;
      if (job.status === "completed" || job.status === "failed")
        return `${job.status}: created ${job.created}, failed ${job.failed}`;
    }
  });
  return figures;
}
