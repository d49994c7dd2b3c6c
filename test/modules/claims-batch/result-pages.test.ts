import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../src/engine/fwa/analyze.js";
import { FWA_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { type ResultSource, resultSourceOf } from "../../../src/engine/fwa/result-bytes.js";
import { type ClaimResult, claimResult } from "../../../src/engine/fwa/results.js";
import { type ResultPage, writePages } from "../../../src/modules/claims-batch/result-pages.js";
import { claim, item, viewOf } from "../../engine/fwa/fixtures.js";

const context = { batchId: "B-1", analyzedAt: "2026-11-27T00:00:00.000Z" };

/** seven claims of two items; every third one's service predates its insurance: rejected, with reasons */
function analysed() {
  const claims = Array.from({ length: 7 }, (_, n) =>
    claim({
      claim_id: `C-${n}`,
      member_id: `M-${n}`,
      provider_id: n % 2 === 0 ? "P-even" : 'P-"odd"',
      claim_items: [item(), item({ erp_item_id: `E-${n}`, service_code: "99214" })],
      ...(n % 3 === 0 ? { insurance_start_date: "2026-04-01" } : {}),
    }),
  );
  const view = viewOf(claims);
  const decisions = analyzeBatch({ ...view }, FWA_DETECTORS, { flagThreshold: 0.5 });
  const expected = claims.map((_, c) => claimResult(view, decisions, c, context));
  return { source: resultSourceOf(view, decisions, context), expected };
}

async function pagesOf(source: ResultSource, pageClaims: number, step: number) {
  const pages: ResultPage[] = [];
  const progress: number[] = [];
  const written = await writePages(source, pageClaims, step, {
    onPage: (page) => {
      // its bytes are the buffer of the view's next page: kept, they are copied
      pages.push({ ...page, json: page.json.slice() });
      return undefined;
    },
    onProgress: (claims) => {
      progress.push(claims);
      return undefined;
    },
  });
  return { written, pages, progress };
}

const decoder = new TextDecoder();
const entriesOf = (pages: ResultPage[], view: string): ClaimResult[] =>
  pages.filter((page) => page.view === view).flatMap((page) => JSON.parse(decoder.decode(page.json)));

describe("a batch's result pages", () => {
  it("holds every claim's result in order in `all` and in the view of its status, pages of the size asked", async () => {
    const { source, expected } = analysed();
    const rejected = expected.filter((result) => result.status === "rejected");
    assert.deepEqual(
      rejected.map((result) => result.claim_id),
      ["C-0", "C-3", "C-6"],
    );
    assert.ok(rejected.every((result) => result.claim_items.some((i) => i.reasons.length > 0)));

    const { written, pages, progress } = await pagesOf(source, 2, 3);
    assert.equal(written, 7);
    assert.deepEqual(progress, [3, 6]);
    assert.deepEqual(entriesOf(pages, "all"), expected);
    assert.deepEqual(entriesOf(pages, "rejected"), rejected);
    assert.deepEqual(
      entriesOf(pages, "approved"),
      expected.filter((result) => result.status === "approved"),
    );
    const all = pages.filter((page) => page.view === "all");
    assert.deepEqual(
      all.map((page) => [page.page, page.claims, page.items]),
      [
        [1, 2, 4],
        [2, 2, 4],
        [3, 2, 4],
        [4, 1, 2],
      ],
    );
    // the stored text is the results' JSON exactly
    assert.equal(decoder.decode(all[0]?.json), JSON.stringify(expected.slice(0, 2)));
  });

  it("are the same bytes from a copy of the source, as a thread receives it", async () => {
    const { source } = analysed();
    const here = await pagesOf(source, 3, 100);
    const copied = await pagesOf(structuredClone(source), 3, 100);
    assert.deepEqual(copied.pages, here.pages);
    assert.ok(here.pages.length > 0);
  });
});
