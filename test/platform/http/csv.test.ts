import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CSV_HEADER, csvRowsOf } from "../../../src/modules/claims-batch/results.js";
import { csvCell, csvLine } from "../../../src/platform/http/csv.js";
import { FORMULAS } from "../../modules/claims-batch/fixtures.js";

describe("CSV cells", () => {
  it("quotes as RFC 4180 says", () => {
    assert.equal(csvCell("plain id"), "plain id");
    assert.equal(csvCell("a,b"), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell("two\nlines"), '"two\nlines"');
    assert.equal(csvCell("cr\r"), '"cr\r"');
    assert.equal(csvCell(""), "");
    assert.equal(csvCell(null), "");
    assert.equal(csvCell(undefined), "");
  });

  it("neutralises text that starts a formula: a leading quote, and quotes around it", () => {
    for (const [text, written] of FORMULAS) assert.equal(csvCell(text), written, JSON.stringify(text));
    // only the first character counts: a formula sign inside the text is text already
    assert.equal(csvCell("C-1=2"), "C-1=2");
  });

  it("writes numbers as numbers, negative ones too, by the value's type", () => {
    assert.equal(csvCell(-12.5), "-12.5");
    assert.equal(csvCell(-12.5, 2), "-12.50");
    assert.equal(csvCell(0.1234), "0.1234");
    assert.equal(csvCell(1), "1");
    assert.equal(csvCell(Number.NaN), "");
    // the same figures as text are the tenant's text, and neutralised
    assert.equal(csvCell("-12.5"), `"'-12.5"`);
    assert.equal(csvLine(["a", -1, "=1", null]), `a,-1,"'=1",`);
  });

  it("writes a claim's result rows with every text cell neutralised and the score a number", () => {
    assert.equal(
      CSV_HEADER,
      "batch_id,claim_id,claim_status,erp_claim_item_id,item_status,ai_score,reason_codes,reason_descriptions",
    );
    const reason = (code: string, description: string) => ({
      id: "x",
      createdAt: "t",
      code,
      description,
      cause: "c",
      typeDecision: "REJECT" as const,
      source: "rules" as const,
    });
    const rows = csvRowsOf(
      {
        claim_id: 'C,"1"',
        status: "rejected",
        erp_claim_id: 'C,"1"',
        provider_id: "P-1",
        claim_items: [
          {
            erp_claim_item_id: "E-1",
            status: "rejected",
            ai_score: 1,
            reasons: [reason("NDC034", "Service before insurance start"), reason("FWA-X", 'Odd, "quoted"')],
          },
          { erp_claim_item_id: "E\n2", status: "approved", ai_score: 0.1234, reasons: [] },
          {
            erp_claim_item_id: "@SUM(1+1)",
            status: "flagged",
            ai_score: 0.5,
            reasons: [reason("X", "-1+1")],
          },
        ],
      },
      "B-1",
    );
    assert.deepEqual(rows, [
      'B-1,"C,""1""",rejected,E-1,rejected,1,NDC034|FWA-X,"Service before insurance start|Odd, ""quoted"""',
      'B-1,"C,""1""",rejected,"E\n2",approved,0.1234,,',
      `B-1,"C,""1""",rejected,"'@SUM(1+1)",flagged,0.5,X,"'-1+1"`,
    ]);
  });
});
