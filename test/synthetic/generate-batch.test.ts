import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { Compile } from "typebox/compile";
import { BatchClaim, type BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
// (this registers the mizan-date and mizan-datetime formats that BatchClaim refers to)
import { isDate, isDateTime } from "../../src/platform/http/validation.js";
import { diagnosisFacts, isMaternityDiagnosis, serviceFacts } from "../../src/reference/clinical.js";
import {
  type ClaimHook,
  type GenerateBatchOptions,
  generateBatch,
  generateClaims,
  writeBatch,
} from "../../synthetic/index.js";
import { runGenerator, yearsBetween } from "../engine/fwa/fixtures.js";

interface Batch {
  start_date: string;
  end_date: string;
  description?: string;
  batch_reference_id: string;
  claims: BatchClaimInput[];
}

async function bytesOf(options: GenerateBatchOptions) {
  const batch = generateBatch(options);
  const chunks: Buffer[] = [];
  for await (const chunk of batch) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), stats: batch.stats, chunks: chunks.length };
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const dir = mkdtempSync(join(tmpdir(), "mizan-generate-batch-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("synthetic claims batch", async () => {
  const options: GenerateBatchOptions = { claims: 2000, seed: 42, chunkBytes: 64 * 1024 };
  const { bytes, stats, chunks } = await bytesOf(options);
  const batch = JSON.parse(bytes.toString("utf8")) as Batch;

  it("streams the batch in chunks, with counts that match", () => {
    assert.ok(chunks > 10, `${chunks} chunks`);
    assert.equal(batch.claims.length, 2000);
    assert.deepEqual(stats, {
      claims: 2000,
      items: batch.claims.reduce((n, c) => n + c.claim_items.length, 0),
      bytes: bytes.length,
    });
    assert.equal(stats.items, 8000);
  });

  it("has valid root fields", () => {
    assert.ok(isDate(batch.start_date) && isDate(batch.end_date));
    assert.ok(batch.end_date >= batch.start_date);
    assert.equal(batch.start_date, "2026-01-01");
    assert.equal(batch.end_date, "2026-01-31");
    assert.ok(batch.batch_reference_id.length >= 1 && batch.batch_reference_id.length <= 100);
    assert.ok(batch.description === undefined || batch.description.length <= 500);
    assert.ok(batch.claims.length >= 1);
  });

  it("satisfies the BatchClaim schema, claim by claim", () => {
    const check = Compile(BatchClaim);
    for (const [index, claim] of batch.claims.entries()) {
      if (!check.Check(claim))
        assert.fail(`claim ${index}: ${JSON.stringify([...check.Errors(claim)].slice(0, 3))}`);
    }
  });

  it("is consistent in dates, types and pre-authorizations", () => {
    const ids = new Set<string>();
    for (const claim of batch.claims) {
      assert.ok(!ids.has(claim.claim_id), `duplicate ${claim.claim_id}`);
      ids.add(claim.claim_id);
      const date = claim.claim_date;
      assert.ok(date >= batch.start_date && date <= batch.end_date, `${claim.claim_id} date ${date}`);
      assert.ok(claim.insurance_start_date < date, `${claim.claim_id} insured ${claim.insurance_start_date}`);
      if (claim.insurance_addition_date !== undefined) assert.ok(claim.insurance_addition_date < date);
      assert.ok(
        claim.member_dob.slice(0, 10) < date && claim.member_dob.slice(0, 10) <= claim.insurance_start_date,
      );
      const years = yearsBetween(claim.member_dob, date);
      assert.ok(years >= 0 && years <= 91, `${claim.claim_id} age ${years}`);
      const inpatient = claim.claim_sub_type === "IN_PATIENT";
      if (inpatient) {
        assert.equal(claim.claim_type, "INSTITUTIONAL");
        assert.ok(claim.admission_date !== undefined && claim.discharge_date !== undefined);
        assert.ok(claim.admission_date <= claim.discharge_date && claim.discharge_date === date);
        assert.ok(claim.admission_date >= batch.start_date);
        assert.equal(
          yearsBetween(claim.member_dob, claim.admission_date),
          years,
          "the same age through the stay",
        );
      } else {
        assert.equal(claim.admission_date, undefined);
        assert.equal(claim.discharge_date, undefined);
      }
      if (claim.claim_sub_type === "EMERGENCY") assert.equal(claim.is_emergency, true);
      if (claim.claim_sub_type === "OUT_PATIENT") assert.notEqual(claim.is_emergency, true);
      if (claim.days_supply !== undefined) assert.equal(claim.medical_provider_type, "PHARMACY");
      if (claim["pre-auth_status"] !== undefined) {
        assert.ok(["APPROVED", "PENDING"].includes(claim["pre-auth_status"]));
        assert.ok(claim["pre-auth_number"]);
      }
      for (const item of claim.claim_items) {
        if (item.admission_date !== undefined || item.discharge_date !== undefined) {
          assert.ok(inpatient && item.admission_date !== undefined && item.discharge_date !== undefined);
          assert.ok(isDateTime(item.admission_date) && isDateTime(item.discharge_date));
          assert.ok(item.admission_date < item.discharge_date);
          assert.equal(item.admission_date.slice(0, 10), claim.admission_date);
        }
        assert.ok(item.claimed_amount > 0);
      }
    }
  });

  it("fits diagnoses and services to the member's sex and age", () => {
    for (const claim of batch.claims) {
      const sex = claim.member_gender;
      const years = yearsBetween(claim.member_dob, claim.claim_date);
      const primary = claim.primary_diagnosis_code;
      if (sex === "MALE") assert.ok(!primary.startsWith("O"), `${claim.claim_id} ${primary} for a male`);
      if (sex === "FEMALE")
        assert.ok(!/^N(4\d|5[0-3])/.test(primary), `${claim.claim_id} ${primary} for a female`);
      if (years >= 1) assert.ok(!primary.startsWith("P"), `${claim.claim_id} ${primary} at ${years}`);
      const codes = [primary, ...(claim.secondary_diagnosis_codes ?? []).map((d) => d.code)];
      for (const code of codes) {
        const facts = diagnosisFacts(code);
        assert.ok(
          facts.sex === undefined || facts.sex === sex,
          `${claim.claim_id} ${code}: ${facts.sexBasis}`,
        );
        assert.ok(
          facts.minAge === undefined || years >= facts.minAge,
          `${claim.claim_id} ${code} at ${years}`,
        );
        assert.ok(
          facts.maxAge === undefined || years <= facts.maxAge,
          `${claim.claim_id} ${code} at ${years}`,
        );
      }
      const maternity = codes.some(isMaternityDiagnosis);
      for (const item of claim.claim_items) {
        for (const fact of serviceFacts(
          item.service_code,
          item.nphies_code ?? item.service_code,
          item.service_description,
        )) {
          const where = `${claim.claim_id} ${item.service_code} (${fact.basis}) for ${sex} ${years}`;
          assert.ok(fact.sex === undefined || fact.sex === sex, where);
          assert.ok(fact.minAge === undefined || years >= fact.minAge, where);
          assert.ok(fact.maxAge === undefined || years <= fact.maxAge, where);
          assert.ok(fact.maternity !== true || maternity, where);
        }
      }
    }
  });

  it("draws on a population: members keep their details, providers serve many members", () => {
    const members = new Map<string, string>();
    const providers = new Map<string, { type: string; members: Set<string> }>();
    for (const claim of batch.claims) {
      const who = [claim.member_dob, claim.member_gender, claim.ph_id, claim.insurance_start_date].join("|");
      assert.equal(members.get(claim.member_id) ?? who, who, `member ${claim.member_id} changed`);
      members.set(claim.member_id, who);
      const provider = providers.get(claim.provider_id) ?? {
        type: claim.medical_provider_type,
        members: new Set(),
      };
      assert.equal(provider.type, claim.medical_provider_type);
      provider.members.add(claim.member_id);
      providers.set(claim.provider_id, provider);
    }
    assert.ok(members.size > 300 && members.size < 2000, `${members.size} members`);
    const types = new Set([...providers.values()].map((p) => p.type));
    assert.deepEqual([...types].sort(), ["CLINIC", "HOSPITAL", "LABORATORY", "PHARMACY", "RADIOLOGY"]);
    const served = [...providers.values()].map((p) => p.members.size);
    assert.ok(served.reduce((a, b) => a + b, 0) / served.length > 20, "providers serve many members");
    const subTypes = new Set(batch.claims.map((c) => c.claim_sub_type));
    assert.deepEqual([...subTypes].sort(), ["EMERGENCY", "IN_PATIENT", "OUT_PATIENT"]);
  });

  it("prices each service near its list price, with most items carrying an erp_item_id", () => {
    const prices = new Map<string, number[]>();
    let withErp = 0;
    const erp = new Set<string>();
    for (const item of batch.claims.flatMap((c) => c.claim_items)) {
      prices.set(item.service_code, [...(prices.get(item.service_code) ?? []), item.claimed_amount]);
      if (item.erp_item_id !== undefined) {
        withErp += 1;
        assert.ok(!erp.has(item.erp_item_id));
        erp.add(item.erp_item_id);
      }
    }
    assert.ok(withErp / stats.items > 0.8, `${withErp} of ${stats.items} with erp_item_id`);
    for (const [code, amounts] of prices) {
      const spread = Math.max(...amounts) / Math.min(...amounts);
      assert.ok(spread < 2.2, `${code} prices spread ${spread.toFixed(2)}x`);
    }
    const quantities = batch.claims.flatMap((c) => c.claim_items.map((i) => i.claimed_quantity));
    assert.ok(quantities.filter((q) => q === 1).length / quantities.length > 0.7, "quantities mostly 1");
  });

  it("gives the same bytes for the same seed and other bytes for another seed", async () => {
    const again = await bytesOf(options);
    assert.equal(sha(again.bytes), sha(bytes));
    const other = await bytesOf({ ...options, seed: 43 });
    assert.notEqual(sha(other.bytes), sha(bytes));
    // iterating the same generated batch twice gives the same bytes too
    const generated = generateBatch({ claims: 50, seed: 3 });
    const first: Buffer[] = [];
    for await (const chunk of generated) first.push(chunk);
    const second: Buffer[] = [];
    for await (const chunk of generated) second.push(chunk);
    assert.ok(Buffer.concat(first).equals(Buffer.concat(second)));
    assert.equal(generated.stats.claims, 50);
  });

  it("stays byte for byte what it was (pinned digests)", async () => {
    // clean batches are fixtures of benchmarks and tests: a change to them must be deliberate
    assert.equal(sha(bytes), "62bdefaad404c000460c35ab95c1ba7d3176489311cf4232be3224ec5d2b0404");
    const ranged = await bytesOf({ claims: 5000, seed: 7, itemsPerClaim: [1, 7] });
    assert.equal(sha(ranged.bytes), "a47d58456b68d377f9cff50ec1eb657ee76e3abc5f1baf21340ea2f7b95478a1");
  });

  it("writes gzip that gunzips to the same JSON", async () => {
    const file = join(dir, "batch.json.gz");
    const result = await writeBatch(options, { out: file });
    assert.equal(result.gzip, true);
    assert.equal(result.written, statSync(file).size);
    assert.ok(result.written < bytes.length / 4, `${result.written} bytes of gzip`);
    assert.deepEqual([result.claims, result.items, result.bytes], [2000, 8000, bytes.length]);
    assert.ok(gunzipSync(readFileSync(file)).equals(bytes));
    const plain = join(dir, "batch.json");
    await writeBatch(options, { out: plain });
    assert.ok(readFileSync(plain).equals(bytes));
  });
});

describe("generator options", () => {
  it("draws items per claim from a range", async () => {
    const { bytes, stats } = await bytesOf({ claims: 400, itemsPerClaim: [1, 7], seed: 9 });
    const counts = (JSON.parse(bytes.toString()) as Batch).claims.map((c) => c.claim_items.length);
    assert.equal(Math.min(...counts), 1);
    assert.equal(Math.max(...counts), 7);
    assert.equal(
      stats.items,
      counts.reduce((a, b) => a + b, 0),
    );
    const check = Compile(BatchClaim);
    const many = [...generateClaims({ claims: 20, itemsPerClaim: 40, seed: 2 })];
    assert.ok(many.every((c) => c.claim_items.length === 40 && check.Check(c)));
  });

  it("takes the period, reference and description", async () => {
    const { bytes } = await bytesOf({
      claims: 30,
      startDate: "2025-02-27",
      endDate: "2025-03-01",
      reference: "REF-1",
      description: "",
    });
    const batch = JSON.parse(bytes.toString()) as Batch;
    assert.deepEqual(
      [batch.start_date, batch.end_date, batch.batch_reference_id],
      ["2025-02-27", "2025-03-01", "REF-1"],
    );
    assert.equal(batch.description, undefined);
    assert.ok(batch.claims.every((c) => c.claim_date >= "2025-02-27" && c.claim_date <= "2025-03-01"));
  });

  it("refuses bad options", () => {
    assert.throws(() => generateBatch({ claims: 0 }), /claims/);
    assert.throws(() => generateBatch({ claims: 1.5 }), /claims/);
    assert.throws(() => generateBatch({ claims: 1, itemsPerClaim: 0 }), /itemsPerClaim/);
    assert.throws(() => generateBatch({ claims: 1, itemsPerClaim: [3, 2] }), /itemsPerClaim/);
    assert.throws(() => generateBatch({ claims: 1, startDate: "2026-02-30" }), /startDate/);
    assert.throws(
      () => generateBatch({ claims: 1, startDate: "2026-02-02", endDate: "2026-02-01" }),
      /endDate/,
    );
    assert.throws(() => generateBatch({ claims: 1, reference: "x".repeat(101) }), /reference/);
  });

  it("runs hooks on every claim, on their own random stream", () => {
    const seen: number[] = [];
    const hook: ClaimHook = (claim, context) => {
      seen.push(context.index);
      assert.equal(claim.member_id, context.population.memberId[context.member]);
      assert.equal(claim.provider_id, context.population.providerId[context.provider]);
      assert.equal(claim.primary_diagnosis_code, context.diagnosis.code);
      assert.equal(claim.claim_date, new Date(context.day * 86_400_000).toISOString().slice(0, 10));
      assert.ok(context.day >= context.start && context.day <= context.end);
      if (context.rng.chance(0.2)) return { ...claim, claim_id: `${claim.claim_id}-X` };
      return undefined;
    };
    const plain = [...generateClaims({ claims: 200, seed: 11 })];
    const hooked = [...generateClaims({ claims: 200, seed: 11, hooks: [hook] })];
    assert.deepEqual(seen, [...plain.keys()]);
    const changed = hooked.filter((c) => c.claim_id.endsWith("-X")).length;
    assert.ok(changed > 10 && changed < 80, `${changed} changed`);
    for (const [i, claim] of hooked.entries())
      assert.deepEqual({ ...claim, claim_id: plain[i]?.claim_id }, plain[i]);
  });

  it("lets hooks make claims as the generator does and add them to the batch", () => {
    const check = Compile(BatchClaim);
    const made: { at: number; id: string }[] = [];
    const hook: ClaimHook = (claim, context) => {
      assert.equal(context.date(context.day), claim.claim_date);
      for (const item of claim.claim_items)
        assert.equal(context.price(context.provider, item.service_code), item.claimed_amount);
      if (context.index % 10 !== 0) return undefined;
      const { member, provider, setting, diagnosis, day } = context;
      const other = context.make({ member, provider, setting, diagnosis, day, items: 3 });
      assert.deepEqual(
        [other.member_id, other.provider_id, other.claim_date, other.primary_diagnosis_code],
        [claim.member_id, claim.provider_id, claim.claim_date, claim.primary_diagnosis_code],
      );
      assert.equal(other.claim_items.length, 3);
      const after = context.index % 20 === 0 ? 0 : 3;
      context.emit(other, after);
      made.push({ at: context.index + after, id: other.claim_id });
      return undefined;
    };
    const plain = [...generateClaims({ claims: 100, seed: 8 })];
    const hooked = [...generateClaims({ claims: 100, seed: 8, hooks: [hook] })];
    assert.equal(hooked.length, 110);
    assert.deepEqual(
      hooked.filter((c) => Number(c.claim_id.slice(4)) <= 100),
      plain,
      "the batch's own claims stay the same, in order",
    );
    for (const [k, { at, id }] of made.entries()) {
      assert.equal(id, `CLM-${String(101 + k).padStart(8, "0")}`);
      const position = hooked.findIndex((c) => c.claim_id === id);
      assert.equal(hooked[position - 1]?.claim_id, plain[at]?.claim_id, `${id} goes out after claim ${at}`);
    }
    assert.ok(hooked.every((c) => check.Check(c)));
    // erp item numbers stay unique
    const erp = hooked.flatMap((c) =>
      c.claim_items.flatMap((i) => (i.erp_item_id === undefined ? [] : [i.erp_item_id])),
    );
    assert.equal(new Set(erp).size, erp.length);
  });

  it("has a command line", () => {
    const file = join(dir, "cli.json.gz");
    const run = runGenerator("--claims", "25", "--items", "2-3", "--seed", "5", "--out", file);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^25 claims, \d+ items: [\d,]+ bytes of JSON, [\d,]+ bytes written \(gzip\)/);
    const batch = JSON.parse(gunzipSync(readFileSync(file)).toString()) as Batch;
    assert.equal(batch.claims.length, 25);
    const usage = runGenerator();
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /usage:/);
  });
});
