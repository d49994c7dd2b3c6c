import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { parseCodeSetText } from "../../../src/reference/code-set-file.js";
import { isWellFormedIcd10 } from "../../../src/reference/icd10.js";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";

const ICD10_FILE = new URL("../../../../shared/data/icd10cm-fy2026.tsv", import.meta.url).pathname;

describe("ICD-10 code set", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("knows ICD-10 structure", () => {
    for (const code of ["A00", "A00.0", "J45.909", "S72001A", "C4A.0", "z00.00"])
      assert.ok(isWellFormedIcd10(code), code);
    for (const code of ["", "A0", "1AB", "A00.", "A00.00000", "AB0", "J45-909"])
      assert.ok(!isWellFormedIcd10(code), code);
  });

  it("before a set is loaded, accepts any well-formed code and refuses a malformed one with 404 E_EPA_02", async () => {
    const known = await ctx.tenant.call("GET", "/code-set/icd10/J45.909");
    assert.equal(known.statusCode, 200);
    assert.deepEqual(known.json(), {
      system: "icd10",
      code: "J45909",
      description: null,
      matched_by: "structure",
    });
    const bad = await ctx.tenant.call("GET", "/code-set/icd10/NOTACODE");
    assert.equal(bad.statusCode, 404);
    assert.equal(bad.json().ErrorCode, "E_EPA_02");
  });

  it("imports TSV with a header, codes with or without the dot; then only listed codes exist", async () => {
    const tsv =
      "code\tdescription\nJ45.909\tUnspecified asthma, uncomplicated\nE119\tType 2 diabetes mellitus without complications\n";
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${ctx.tenant.name}/v4.0/health/code-set/icd10/import`,
      headers: { "access-key": ctx.tenant.apiKey, "content-type": "text/tab-separated-values" },
      payload: tsv,
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { system: "icd10", imported: 2, total: 2 });

    const listed = (await ctx.tenant.call("GET", "/code-set/icd10/E11.9")).json();
    assert.deepEqual(listed, {
      system: "icd10",
      code: "E119",
      description: "Type 2 diabetes mellitus without complications",
      matched_by: "code_set",
    });
    const unlisted = await ctx.tenant.call("GET", "/code-set/icd10/A00.0");
    assert.equal(unlisted.statusCode, 404);
    assert.equal(unlisted.json().ErrorCode, "E_EPA_02");
    assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "code_set", "icd10"), ["code_set.import"]);
  });

  it("imports JSON, merging by default and replacing on request", async () => {
    const merge = await ctx.tenant.call("POST", "/code-set/icd10/import", [
      { code: "A00.0", description: "Cholera due to Vibrio cholerae 01, biovar cholerae" },
      { code: "E11.9", description: "Type 2 diabetes (renamed)" },
    ]);
    assert.deepEqual(merge.json(), { system: "icd10", imported: 2, total: 3 });
    assert.equal(
      (await ctx.tenant.call("GET", "/code-set/icd10/E119")).json().description,
      "Type 2 diabetes (renamed)",
    );

    const replace = await ctx.tenant.call("POST", "/code-set/icd10/import?mode=replace", [
      { code: "R51", description: "Headache" },
    ]);
    assert.deepEqual(replace.json(), { system: "icd10", imported: 1, total: 1 });
    assert.equal((await ctx.tenant.call("GET", "/code-set/icd10/A000")).statusCode, 404);
    const sets = (await ctx.tenant.call("GET", "/code-set")).json();
    assert.deepEqual(
      sets.data.map((s: { system: string; entry_count: number }) => [s.system, s.entry_count]),
      [["icd10", 1]],
    );
  });

  it("refuses an import with malformed codes as a whole, naming the lines, and changes nothing", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${ctx.tenant.name}/v4.0/health/code-set/icd10/import`,
      headers: { "access-key": ctx.tenant.apiKey, "content-type": "text/tab-separated-values" },
      payload: "K21.9\tReflux\nBAD!\tNope\n",
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
    assert.deepEqual(res.json().details, [
      'line 2: code "BAD!" is not a code (3 to 8 letters and digits, one optional dot)',
    ]);
    assert.equal((await ctx.tenant.call("GET", "/code-set/icd10/K219")).statusCode, 404);
  });

  it("answers 400 for an unknown system or an empty JSON list, and 401 without a key", async () => {
    const system = await ctx.tenant.call("POST", "/code-set/cpt/import", [
      { code: "99213", description: "Visit" },
    ]);
    assert.equal(system.statusCode, 400);
    assert.deepEqual(system.json().details, ["system must be one of: icd10"]);
    const empty = await ctx.tenant.call("POST", "/code-set/icd10/import", []);
    assert.equal(empty.statusCode, 400);
    const noKey = await ctx.app.inject({
      method: "POST",
      url: `/${ctx.tenant.name}/v4.0/health/code-set/icd10/import`,
      payload: [],
    });
    assert.equal(noKey.statusCode, 401);
  });

  it("reads CSV with quoted descriptions", () => {
    const parsed = parseCodeSetText(
      'icd_code,long_description\r\n"A01.0","Typhoid fever, ""enteric"""\r\nA02,Salmonella\r\n',
    );
    assert.deepEqual(parsed.entries, [
      { code: "A01.0", description: 'Typhoid fever, "enteric"' },
      { code: "A02", description: "Salmonella" },
    ]);
    assert.deepEqual(parsed.lines, [2, 3]);
  });

  it("imports the full ICD-10-CM FY2026 list over HTTP", {
    skip: !existsSync(ICD10_FILE) && "../shared/data is absent",
  }, async () => {
    const tenant = await ctx.newTenant();
    const tsv = readFileSync(ICD10_FILE, "utf8");
    const rows = tsv.trim().split("\n").length - 1;
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${tenant.name}/v4.0/health/code-set/icd10/import`,
      headers: { "access-key": tenant.apiKey, "content-type": "text/tab-separated-values" },
      payload: tsv,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { system: "icd10", imported: rows, total: rows });
    const asthma = (await tenant.call("GET", "/code-set/icd10/J45.909")).json();
    assert.equal(asthma.matched_by, "code_set");
    assert.match(asthma.description, /asthma/i);
    // well formed but not in the list (the file holds almost no Z codes)
    assert.equal((await tenant.call("GET", "/code-set/icd10/Z99.99")).statusCode, 404);
    // not ICD-10 structure, yet in the insurer's list: the list is the authority
    assert.equal((await tenant.call("GET", "/code-set/icd10/NOINJ")).json().matched_by, "code_set");
  });
});
