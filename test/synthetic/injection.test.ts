import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { runGenerator, yearsBetween } from "../engine/fwa/fixtures.js";
// (this registers the mizan-date and mizan-datetime formats that BatchClaim refers to)
import "../../src/platform/http/validation.js";
import { Compile } from "typebox/compile";
import { BatchClaim, type BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import { diagnosisFacts } from "../../src/reference/clinical.js";
import {
  FWA_PATTERNS,
  type FwaPattern,
  type GenerateBatchOptions,
  generateBatch,
  generateClaims,
  PATTERN_KIND,
  type TruthRecord,
  truthPathOf,
  writeBatch,
} from "../../synthetic/index.js";
import { conflictsFor } from "../../synthetic/injection/claim-patterns.js";

const dir = mkdtempSync(join(tmpdir(), "mizan-fwa-inject-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const BASE = { claims: 6000, seed: 17 } as const;
const clean = new Map([...generateClaims(BASE)].map((c) => [c.claim_id, c]));

interface Injected {
  claims: BatchClaimInput[];
  byId: Map<string, BatchClaimInput>;
  truth: TruthRecord[];
  /** item indexes labelled, by claim_id */
  items: Map<string, number[]>;
  /** claim records by claim_id */
  roles: Map<string, string>;
  providers: Set<string>;
  members: Set<string>;
}

function inject(
  patterns: readonly FwaPattern[],
  rate = 0.2,
  extra: Partial<GenerateBatchOptions> = {},
): Injected {
  const truth: TruthRecord[] = [];
  const claims = [
    ...generateClaims({ ...BASE, ...extra, inject: { rate, patterns }, truth: (r) => truth.push(r) }),
  ];
  const items = new Map<string, number[]>();
  const roles = new Map<string, string>();
  const providers = new Set<string>();
  const members = new Set<string>();
  for (const r of truth) {
    assert.ok(r.level === "provider" || r.level === "member" || patterns.includes(r.pattern), r.pattern);
    if (r.level === "item") items.set(r.claim_id, [...(items.get(r.claim_id) ?? []), r.item_index]);
    else if (r.level === "claim") {
      assert.ok(!roles.has(r.claim_id), `${r.claim_id} has two claim records`);
      roles.set(r.claim_id, r.role);
    } else if (r.level === "provider") providers.add(r.provider_id);
    else members.add(r.member_id);
  }
  const byId = new Map(claims.map((c) => [c.claim_id, c]));
  assert.equal(byId.size, claims.length, "claim ids are unique");
  for (const [id, indexes] of items) {
    const claim = byId.get(id);
    assert.ok(claim !== undefined, `truth names ${id}`);
    assert.equal(new Set(indexes).size, indexes.length, `${id}: an item labelled twice`);
    for (const k of indexes) assert.ok(k >= 0 && k < claim.claim_items.length, `${id} item ${k}`);
    assert.ok(["changed", "added", "part"].includes(roles.get(id) ?? ""), `${id} role ${roles.get(id)}`);
  }
  // what no record names is the clean claim, unchanged
  for (const claim of claims) {
    const role = roles.get(claim.claim_id);
    if (role === undefined || role === "context" || role === "part")
      assert.deepEqual(claim, clean.get(claim.claim_id), `${claim.claim_id} (${role ?? "clean"}) changed`);
    if (role === "added") assert.ok(!clean.has(claim.claim_id), `${claim.claim_id} added under a batch id`);
    if (role === "added") assert.deepEqual(items.get(claim.claim_id), [...claim.claim_items.keys()]);
  }
  return { claims, byId, truth, items, roles, providers, members };
}

const idsWith = (run: Injected, role: string) =>
  [...run.roles].filter(([, r]) => r === role).map(([id]) => id);
const day = (text: string) => Date.parse(`${text.slice(0, 10)}T00:00:00.000Z`) / 86_400_000;
/** the claim without the fields named */
const without = (claim: BatchClaimInput, ...keys: string[]) =>
  Object.fromEntries(Object.entries(claim).filter(([k]) => !keys.includes(k)));

describe("FWA injectors: each changes what it says and labels it", () => {
  it("duplicate billing: a later, identical copy under a new claim_id; the copy's items labelled", () => {
    const run = inject(["duplicate_billing"]);
    const copies = idsWith(run, "added");
    assert.ok(copies.length > 40, `${copies.length} copies`);
    assert.equal(idsWith(run, "context").length, copies.length);
    const position = new Map(run.claims.map((c, i) => [c.claim_id, i]));
    for (const id of copies) {
      const copy = run.byId.get(id) as BatchClaimInput;
      const detail = run.truth.find((r) => r.level === "item" && r.claim_id === id);
      const originalId = (detail?.level === "item" && detail.detail?.replace("copy of ", "")) || "";
      assert.equal(run.roles.get(originalId), "context");
      assert.deepEqual({ ...copy, claim_id: originalId }, run.byId.get(originalId));
      assert.ok((position.get(id) as number) > (position.get(originalId) as number), "the copy comes later");
      assert.equal(run.items.get(originalId), undefined, "the original is not positive");
    }
  });

  it("service before coverage: insured 1-45 days after the claim date; every item labelled", () => {
    const run = inject(["service_before_coverage"]);
    const changed = idsWith(run, "changed");
    assert.ok(changed.length > 150, `${changed.length}`);
    for (const id of changed) {
      const claim = run.byId.get(id) as BatchClaimInput;
      const before = clean.get(id) as BatchClaimInput;
      const gap = day(claim.insurance_start_date) - day(claim.claim_date);
      assert.ok(gap >= 1 && gap <= 45, `${id} gap ${gap}`);
      assert.equal(claim.insurance_addition_date, claim.insurance_start_date);
      assert.deepEqual(
        without(claim, "insurance_start_date", "insurance_addition_date"),
        without(before, "insurance_start_date", "insurance_addition_date"),
      );
      assert.deepEqual(run.items.get(id), [...claim.claim_items.keys()]);
    }
  });

  it("impossible diagnoses: a primary diagnosis the member's sex or age rules out; every item labelled", () => {
    const run = inject(["impossible_diagnosis"]);
    const changed = idsWith(run, "changed");
    assert.ok(changed.length > 150, `${changed.length}`);
    const kinds = new Set<string>();
    for (const id of changed) {
      const claim = run.byId.get(id) as BatchClaimInput;
      const before = clean.get(id) as BatchClaimInput;
      const facts = diagnosisFacts(claim.primary_diagnosis_code);
      const years = yearsBetween(claim.member_dob, claim.claim_date);
      const sexConflict = facts.sex !== undefined && facts.sex !== claim.member_gender;
      const ageConflict =
        (facts.minAge !== undefined && years < facts.minAge) ||
        (facts.maxAge !== undefined && years > facts.maxAge);
      assert.ok(
        sexConflict || ageConflict,
        `${id} ${claim.primary_diagnosis_code} for ${claim.member_gender} ${years}`,
      );
      const detail = run.truth.find((r) => r.level === "item" && r.claim_id === id);
      const kind = detail?.level === "item" ? (detail.detail ?? "").split(":")[0] : "";
      assert.ok(kind === "gender" ? sexConflict : ageConflict, `${id}: ${kind}`);
      kinds.add(kind ?? "");
      const keys = [
        "primary_diagnosis_code",
        "primary_diagnosis_description",
        "admission_code",
        "admission_diagnosis",
      ];
      assert.deepEqual(without(claim, ...keys), without(before, ...keys));
      assert.deepEqual(run.items.get(id), [...claim.claim_items.keys()]);
    }
    assert.deepEqual([...kinds].sort(), ["age", "gender"]);
    // every member has a conflict to be given
    for (const sex of ["MALE", "FEMALE"] as const)
      for (const age of [0, 5, 14, 30, 90]) assert.ok(conflictsFor(sex, age).length > 0);
  });

  for (const [pattern, field, lo, hi] of [
    ["price_inflation", "claimed_amount", 2.99, 10.01],
    ["quantity_inflation", "claimed_quantity", 5, 20],
  ] as const)
    it(`${pattern}: one item's ${field} x${Math.round(lo)}-${Math.round(hi)}, that item labelled`, () => {
      const run = inject([pattern]);
      const changed = idsWith(run, "changed");
      assert.ok(changed.length > 150, `${changed.length}`);
      for (const id of changed) {
        const claim = run.byId.get(id) as BatchClaimInput;
        const before = clean.get(id) as BatchClaimInput;
        const differ = claim.claim_items.flatMap((item, k) =>
          JSON.stringify(item) === JSON.stringify(before.claim_items[k]) ? [] : [k],
        );
        assert.deepEqual(run.items.get(id), differ);
        assert.equal(differ.length, 1);
        const k = differ[0] as number;
        const ratio = (claim.claim_items[k]?.[field] as number) / (before.claim_items[k]?.[field] as number);
        assert.ok(ratio >= lo && ratio <= hi, `${id} x${ratio}`);
        assert.deepEqual({ ...claim.claim_items[k], [field]: 0 }, { ...before.claim_items[k], [field]: 0 });
        assert.deepEqual(without(claim, "claim_items"), without(before, "claim_items"));
      }
    });

  it("same-day unbundling: a claim shared out over 2-3 claims of the same member, provider and day", () => {
    const run = inject(["same_day_unbundling"]);
    const changed = idsWith(run, "changed");
    assert.ok(changed.length > 60, `${changed.length}`);
    const parts = new Map<string, BatchClaimInput[]>();
    for (const r of run.truth)
      if (r.level === "item" && r.item_index === 0) {
        const origin = (r.detail ?? "").split(" ")[0] as string;
        parts.set(origin, [...(parts.get(origin) ?? []), run.byId.get(r.claim_id) as BatchClaimInput]);
      }
    assert.deepEqual([...parts.keys()].sort(), changed.sort());
    for (const [id, split] of parts) {
      const before = clean.get(id) as BatchClaimInput;
      assert.ok(split.length >= 2 && split.length <= 3, `${id} in ${split.length}`);
      assert.equal(split[0]?.claim_id, id, "the first part keeps the claim_id");
      assert.deepEqual(split[0]?.claim_items[0], before.claim_items[0], "the first item stays on it");
      for (const part of split) {
        assert.ok(part.claim_items.length >= 1);
        assert.deepEqual(
          without(part, "claim_id", "claim_items"),
          without(before, "claim_id", "claim_items"),
        );
        assert.deepEqual(run.items.get(part.claim_id), [...part.claim_items.keys()]);
      }
      const key = (items: BatchClaimInput["claim_items"]) => items.map((i) => JSON.stringify(i)).sort();
      assert.deepEqual(
        key(split.flatMap((p) => p.claim_items)),
        key(before.claim_items),
        "no item lost or made",
      );
    }
  });

  it("excessive length of stay: 3 times as long and twice the usual longest at least; every item labelled", () => {
    const run = inject(["excessive_los"], 0.3);
    const changed = idsWith(run, "changed");
    assert.ok(changed.length > 60, `${changed.length}`);
    for (const id of changed) {
      const claim = run.byId.get(id) as BatchClaimInput;
      const before = clean.get(id) as BatchClaimInput;
      assert.equal(claim.claim_sub_type, "IN_PATIENT");
      const los = day(claim.discharge_date as string) - day(claim.admission_date as string);
      const was = day(before.discharge_date as string) - day(before.admission_date as string);
      assert.ok(los >= 3 * Math.max(1, was) && los >= 4, `${id}: ${was} -> ${los}`);
      assert.ok((claim.admission_date as string) > claim.insurance_start_date);
      assert.ok((claim.admission_date as string) > claim.member_dob.slice(0, 10));
      for (const [k, item] of claim.claim_items.entries()) {
        const old = before.claim_items[k] as BatchClaimInput["claim_items"][number];
        if (item.admission_date !== undefined)
          assert.equal(item.admission_date.slice(0, 10), claim.admission_date);
        if (item.service_code === "99232") assert.equal(item.claimed_quantity, Math.max(1, los - 1));
        assert.deepEqual(
          { ...item, admission_date: 0, claimed_quantity: 0 },
          { ...old, admission_date: 0, claimed_quantity: 0 },
        );
      }
      assert.deepEqual(
        without(claim, "admission_date", "claim_items"),
        without(before, "admission_date", "claim_items"),
      );
      assert.deepEqual(run.items.get(id), [...claim.claim_items.keys()]);
    }
  });

  it("doctor shopping: a member at 4-7 clinics within days for one complaint; the visits labelled", () => {
    const run = inject(["doctor_shopping"]);
    assert.ok(run.members.size >= 20, `${run.members.size} members`);
    for (const member of run.members) {
      const visits = run.claims.filter(
        (c) => c.member_id === member && ["part", "added"].includes(run.roles.get(c.claim_id) ?? ""),
      );
      const [first, ...more] = visits;
      assert.ok(first !== undefined && run.roles.get(first.claim_id) === "part");
      assert.ok(more.length >= 3 && more.length <= 6, `${more.length} more visits`);
      assert.equal(new Set(visits.map((c) => c.provider_id)).size, visits.length, "a clinic each");
      for (const visit of more) {
        assert.equal(visit.medical_provider_type, "CLINIC");
        assert.equal(visit.primary_diagnosis_code, first.primary_diagnosis_code);
        const gap = day(visit.claim_date) - day(first.claim_date);
        assert.ok(gap >= -2 && gap <= 6, `gap ${gap}`);
        for (const key of ["member_dob", "member_gender", "ph_id", "insurance_start_date"] as const)
          assert.equal(visit[key], first[key]);
      }
      for (const c of visits) assert.deepEqual(run.items.get(c.claim_id), [...c.claim_items.keys()]);
    }
  });

  it("upcoding provider: a clinic's 99212-99214 visits billed as 99215, the changed ones labelled", () => {
    const run = inject(["upcoding_provider"]);
    assert.equal(run.providers.size, 1);
    const [provider] = run.providers;
    let upcodable = 0;
    let upcoded = 0;
    for (const claim of run.claims.filter((c) => c.provider_id === provider)) {
      const before = clean.get(claim.claim_id) as BatchClaimInput;
      assert.ok(["changed", "context"].includes(run.roles.get(claim.claim_id) ?? ""));
      const differ: number[] = [];
      for (const [k, item] of claim.claim_items.entries()) {
        const old = before.claim_items[k] as BatchClaimInput["claim_items"][number];
        if (["99212", "99213", "99214"].includes(old.service_code)) upcodable += 1;
        if (JSON.stringify(item) === JSON.stringify(old)) continue;
        differ.push(k);
        upcoded += 1;
        assert.ok(["99212", "99213", "99214"].includes(old.service_code));
        assert.equal(item.service_code, "99215");
        assert.ok(item.claimed_amount > old.claimed_amount);
      }
      assert.deepEqual(run.items.get(claim.claim_id) ?? [], differ);
    }
    assert.ok(upcoded / upcodable > 0.5 && upcoded / upcodable < 0.9, `${upcoded} of ${upcodable}`);
    // the same visit at the same provider has one price
    const prices = new Set(
      run.claims.flatMap((c) =>
        c.provider_id === provider
          ? c.claim_items.filter((i) => i.service_code === "99215").map((i) => i.claimed_amount)
          : [],
      ),
    );
    assert.equal(prices.size, 1);
  });

  it("high-volume provider: 3-5 times the claims, more items, costly services, two diagnoses", () => {
    const run = inject(["high_volume_provider"]);
    assert.equal(run.providers.size, 1);
    const [provider] = run.providers;
    const own = run.claims.filter((c) => c.provider_id === provider && clean.has(c.claim_id));
    const added = run.claims.filter(
      (c) => c.provider_id === provider && run.roles.get(c.claim_id) === "added",
    );
    const ratio = (own.length + added.length) / own.length;
    assert.ok(ratio >= 2.5 && ratio <= 5.5, `x${ratio}`);
    assert.ok(new Set(added.map((c) => c.primary_diagnosis_code)).size <= 2);
    const costly = new Set(["70450", "20610", "72100", "73562", "71046", "96360", "93000"]);
    for (const claim of added) {
      assert.ok(claim.claim_items.length > 4, `${claim.claim_items.length} items`);
      assert.ok(["99214", "99215"].includes(claim.claim_items[0]?.service_code ?? ""));
      assert.ok(claim.claim_items.filter((i) => costly.has(i.service_code)).length >= 2);
      assert.equal(new Set(claim.claim_items.map((i) => i.service_code)).size, claim.claim_items.length);
    }
    // added claims keep a day clear of each other for a member; where one falls on the day of the provider's
    // own claim for the member, the own claim's items that repeat an added service are labelled
    const days = new Map<string, number[]>();
    for (const claim of added) {
      const mine = days.get(claim.member_id) ?? [];
      for (const d of mine) assert.ok(Math.abs(d - day(claim.claim_date)) > 1, `${claim.member_id} twice`);
      days.set(claim.member_id, [...mine, day(claim.claim_date)]);
    }
    let repeated = 0;
    for (const claim of own) {
      const same = added.filter((a) => a.member_id === claim.member_id && a.claim_date === claim.claim_date);
      const billed = new Set(
        same.flatMap((a) => a.claim_items.map((i) => `${i.service_code}|${i.claimed_quantity}`)),
      );
      const expect = claim.claim_items.flatMap((i, k) =>
        billed.has(`${i.service_code}|${i.claimed_quantity}`) ? [k] : [],
      );
      repeated += expect.length;
      assert.deepEqual(run.items.get(claim.claim_id) ?? [], expect, claim.claim_id);
      assert.equal(run.roles.get(claim.claim_id), expect.length > 0 ? "part" : "context");
    }
    assert.ok(repeated < own.length, `${repeated} repeated items`);
  });

  it("all patterns at once: valid batch claims, every pattern present, one pattern per claim", () => {
    const run = inject(FWA_PATTERNS, 0.1);
    const check = Compile(BatchClaim);
    for (const claim of run.claims)
      if (!check.Check(claim as unknown))
        assert.fail(`${claim.claim_id}: ${JSON.stringify([...check.Errors(claim)].slice(0, 3))}`);
    const seen = new Set(run.truth.map((r) => r.pattern));
    assert.deepEqual([...seen].sort(), [...FWA_PATTERNS].sort());
    const patternOf = new Map<string, string>();
    for (const r of run.truth)
      if (r.level === "item" || r.level === "claim") {
        assert.equal(patternOf.get(r.claim_id) ?? r.pattern, r.pattern, `${r.claim_id} in two patterns`);
        patternOf.set(r.claim_id, r.pattern);
      }
    // about the rate asked: the share of the batch's claims touched (added ones counted)
    const touched = new Set([...run.roles.keys()]).size;
    assert.ok(touched / BASE.claims > 0.05 && touched / BASE.claims < 0.3, `${touched} touched`);
    for (const p of FWA_PATTERNS) assert.ok(PATTERN_KIND[p] === "rule" || PATTERN_KIND[p] === "statistical");
  });
});

describe("FWA injection: determinism, options and the truth file", () => {
  const sha = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");
  const labelled = (options: GenerateBatchOptions) => {
    const truth: TruthRecord[] = [];
    const claims = [...generateClaims({ ...options, truth: (r) => truth.push(r) })];
    return { claims: sha(claims), truth: sha(truth), count: truth.length };
  };

  it("gives the same batch and truth for the same seeds, another injection for another seed", async () => {
    const options = { claims: 3000, seed: 5, inject: { rate: 0.1 } };
    assert.deepEqual(labelled(options), labelled(options));
    const other = labelled({ ...options, inject: { rate: 0.1, seed: 99 } });
    assert.notEqual(other.truth, labelled(options).truth);
    // iterating one generated batch twice gives the same bytes and the truth again
    const truth: TruthRecord[] = [];
    const batch = generateBatch({ ...options, truth: (r) => truth.push(r) });
    const passes: string[] = [];
    for (let pass = 0; pass < 2; pass += 1) {
      const chunks: Buffer[] = [];
      for await (const chunk of batch) chunks.push(chunk);
      passes.push(sha(Buffer.concat(chunks).toString()));
    }
    assert.equal(passes[0], passes[1]);
    assert.equal(truth.length % 2, 0);
    assert.deepEqual(truth.slice(0, truth.length / 2), truth.slice(truth.length / 2));
  });

  it("leaves the batch's own claims as they are, but those it touches", () => {
    const truth: TruthRecord[] = [];
    const claims = [...generateClaims({ ...BASE, inject: { rate: 0.05 }, truth: (r) => truth.push(r) })];
    const named = new Set(
      truth.flatMap((r) => (r.level === "claim" && r.role === "changed" ? [r.claim_id] : [])),
    );
    let same = 0;
    for (const claim of claims)
      if (clean.has(claim.claim_id) && !named.has(claim.claim_id)) {
        assert.deepEqual(claim, clean.get(claim.claim_id));
        same += 1;
      }
    assert.ok(same > BASE.claims * 0.85, `${same} the same`);
    assert.ok(claims.length > BASE.claims);
  });

  it("refuses bad options", () => {
    assert.throws(() => generateBatch({ claims: 10, inject: { rate: 0.9 } }), /rate/);
    assert.throws(() => generateBatch({ claims: 10, inject: { rate: -1 } }), /rate/);
    assert.throws(
      () => generateBatch({ claims: 10, inject: { patterns: ["nope" as FwaPattern] } }),
      /pattern/,
    );
    assert.throws(() => generateBatch({ claims: 10, inject: { seed: 1.5 } }), /seed/);
  });

  it("writes the truth beside the batch", async () => {
    assert.equal(truthPathOf("/x/claims.json.gz"), "/x/claims.truth.jsonl");
    assert.equal(truthPathOf("/x/claims.json"), "/x/claims.truth.jsonl");
    assert.equal(truthPathOf("/x/claims"), "/x/claims.truth.jsonl");
    const out = join(dir, "labelled.json.gz");
    const result = await writeBatch({ claims: 2000, seed: 3, inject: { rate: 0.1 } }, { out });
    assert.equal(result.truth?.path, join(dir, "labelled.truth.jsonl"));
    const lines = readFileSync(join(dir, "labelled.truth.jsonl"), "utf8").trimEnd().split("\n");
    assert.equal(lines.length, result.truth?.records);
    const records = lines.map((line) => JSON.parse(line) as TruthRecord);
    const batch = JSON.parse(gunzipSync(readFileSync(out)).toString()) as { claims: BatchClaimInput[] };
    assert.equal(batch.claims.length, result.claims);
    const ids = new Set(batch.claims.map((c) => c.claim_id));
    for (const r of records) if (r.level === "item" || r.level === "claim") assert.ok(ids.has(r.claim_id));
    assert.deepEqual(records, labelled2(2000, 3));
    // elsewhere on request; none without injection; stdout needs a file named
    const elsewhere = join(dir, "elsewhere.jsonl");
    await writeBatch({ claims: 200, seed: 3, inject: {} }, { out: join(dir, "b.json"), truth: elsewhere });
    assert.ok(existsSync(elsewhere));
    const plain = await writeBatch({ claims: 50 }, { out: join(dir, "plain.json") });
    assert.equal(plain.truth, undefined);
    assert.ok(!existsSync(join(dir, "plain.truth.jsonl")));
    await assert.rejects(writeBatch({ claims: 50, inject: {} }), /truth/);
    await assert.rejects(
      writeBatch({ claims: 50 }, { out: join(dir, "c.json"), truth: join(dir, "c.jsonl") }),
      /inject/,
    );
  });

  it("has command-line flags", () => {
    const out = join(dir, "cli.json");
    const run = runGenerator(
      ...["--claims", "1500", "--seed", "4", "--out", out],
      ...["--inject", "0.1", "--patterns", "price_inflation,duplicate_billing"],
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /ground truth records to .*cli\.truth\.jsonl/);
    const records = readFileSync(join(dir, "cli.truth.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as TruthRecord);
    assert.deepEqual([...new Set(records.map((r) => r.pattern))].sort(), [
      "duplicate_billing",
      "price_inflation",
    ]);
    const bad = runGenerator("--claims", "10", "--inject", "0.1");
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /truth/);
  });
});

function labelled2(claims: number, seed: number): TruthRecord[] {
  const truth: TruthRecord[] = [];
  [...generateClaims({ claims, seed, inject: { rate: 0.1 }, truth: (r) => truth.push(r) })];
  return truth;
}
