import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext } from "../../helpers.js";
import { createReviewer, signIn } from "../console/fixtures.js";
import { analysedBatch, batchBody, batchClaim, claimsCall, FORMULAS, tokenFor } from "./fixtures.js";

/** the cells of a CSV body (RFC 4180: quoted cells may hold commas, quotes, CR and LF), header row first */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) cell += c;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

/** no cell of a table starts a formula; the columns named hold numbers */
function assertSafe(rows: string[][], numeric: string[]) {
  const [header, ...body] = rows;
  assert.ok(header !== undefined && body.length > 0);
  for (const row of body) {
    assert.equal(row.length, header.length, JSON.stringify(row));
    for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(row));
    for (const name of numeric) {
      const cell = row[header.indexOf(name)] ?? "";
      assert.match(cell, /^-?\d+(\.\d+)?$/, `${name} of ${JSON.stringify(row)} is a number`);
    }
  }
}

/** one claim per formula: its claim id, item id, member and provider are the formula */
const formulaBatch = () =>
  batchBody([
    ...FORMULAS.map(([text], n) =>
      batchClaim(n, {
        claim_id: text,
        member_id: text,
        provider_id: text,
        claim_items: [{ ...batchClaim(n).claim_items[0], erp_item_id: text }],
      }),
    ),
    ...Array.from({ length: 6 }, (_, n) => batchClaim(100 + n)),
  ]);

describe("CSV exports with formulas in the tenant's text", () => {
  let ctx: TestContext;
  let token: string;
  let batchId: string;
  before(async () => {
    ctx = await startTestApp();
    token = await tokenFor(ctx.app, ctx.tenant);
    ({ batchId } = await analysedBatch(ctx.app, token, formulaBatch()));
  });
  after(() => ctx.close());

  const csv = async (path: string) => {
    const res = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}${path}`,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };

  it("neutralises the results' claim and item ids; ai_score stays a number", async () => {
    const body = await csv("/results?format=csv");
    for (const [text, written] of FORMULAS) assert.ok(body.includes(written), `${JSON.stringify(text)}`);
    const rows = parseCsv(body);
    assertSafe(rows, ["ai_score"]);
    // the formula's claim: its claim id and item id, each with its leading quote
    for (const [text] of FORMULAS)
      assert.ok(
        rows.some((row) => row[1] === `'${text}` && row[3] === `'${text}`),
        JSON.stringify(text),
      );
  });

  it("neutralises the provider and member rankings' ids; the figures stay numbers", async () => {
    const figures = ["rank", "risk_score", "claims", "items", "claimed_amount", "flagged_amount"];
    for (const [view, column] of [
      ["providers", "provider_id"],
      ["members", "member_id"],
    ] as const) {
      const body = await csv(`/${view}?format=csv`);
      for (const [text, written] of FORMULAS) assert.ok(body.includes(written), `${view}: ${text}`);
      const rows = parseCsv(body);
      assertSafe(rows, figures);
      const ids = rows.slice(1).map((row) => row[(rows[0] ?? []).indexOf(column)]);
      for (const [text] of FORMULAS) assert.ok(ids.includes(`'${text}`), `${view}: ${text}`);
    }
  });

  it("neutralises the console's download, the API's bytes", async () => {
    await createReviewer(ctx.tenant);
    const { cookie } = await signIn(ctx, ctx.tenant);
    const res = await ctx.app.inject({
      method: "GET",
      url: `/${ctx.tenant.name}/console/batches/${batchId}/results.csv`,
      headers: { cookie },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, await csv("/results?format=csv"));
    assertSafe(parseCsv(res.body), ["ai_score"]);
    for (const [text, written] of FORMULAS) assert.ok(res.body.includes(written), text);
  });
});
