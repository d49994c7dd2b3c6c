import { test } from "node:test";
import { startTestApp } from "../helpers.js";

const body = (n: number, tag: string) => ({
  authorization_number: `${tag}-${n}`, transaction_id: `${tag}-${n}`, transaction_type: "PREAUTH", policy_no: "POL1", ph_erp_id: "PH1",
  medical_provider_cchi_no: "CCHI-1", member_id: `M${n % 500}`, member_dob: "1985-06-15T00:00:00.000Z", member_gender: "MALE",
  marital_status: "MARRIED", treatment_date: `2026-0${1 + (n % 9)}-01T00:00:00.000Z`, request_date: "2026-06-01T00:00:00.000Z",
  claim_type: "PROFESSIONAL", claim_sub_type: "OUT_PATIENT", diagnoses: [{ type: "primary", code: "J06.9" }],
  items: [
    { service_code: "CONS-1", service_description: "GP consultation", nphies_code: "99213", nphies_type: "CONSULTATION", service_type: "CONSULTATION", claimed_quantity: 1, claimed_amount: 250, erp_item_id: "I1", benefit_code: 1, sub_benefit_code: 11 },
    { service_code: "LAB-1", service_description: "Comprehensive metabolic panel", nphies_code: "80053", nphies_type: "AMBULATORY", service_type: "AMBULATORY", claimed_quantity: 1, claimed_amount: 180, erp_item_id: "I2", benefit_code: 2 },
  ],
});

test("create loop", async () => {
  const ctx = await startTestApp({}, { workers: 0 });
  const t = await ctx.newTenant("lightweight");
  let n = 0;
  const one = async () => {
    const res = await t.call("POST", "/approval-request/create", body(n++, "L"));
    if (res.statusCode !== 201) throw new Error(res.body);
  };
  for (let i = 0; i < 300; i++) await one();
  const serial: number[] = [];
  const conc: number[] = [];
  for (let r = 0; r < 4; r++) {
    let t0 = performance.now();
    for (let i = 0; i < 300; i++) await one();
    serial.push((performance.now() - t0) / 300);
    t0 = performance.now();
    await Promise.all(Array.from({ length: 20 }, async () => { for (let i = 0; i < 30; i++) await one(); }));
    conc.push((performance.now() - t0) / 600);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]?.toFixed(3);
  console.log(`RESULT serial ${med(serial)} ms/create [${serial.map((x) => x.toFixed(2))}] conc ${med(conc)} ms/create [${conc.map((x) => x.toFixed(2))}]`);
  await ctx.close();
});
