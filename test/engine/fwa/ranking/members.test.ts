import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../../src/engine/fwa/analyze.js";
import { byRisk } from "../../../../src/engine/fwa/ranking/entity.js";
import { memberRanking } from "../../../../src/engine/fwa/ranking/members.js";
import { FWA_DETECTORS } from "../../../../src/engine/fwa/registry.js";
import { claim, item, viewOf } from "../fixtures.js";

/** 60 members over 4 providers and one over 8, some with several claims, amounts that tie and differ */
const claims = Array.from({ length: 400 }, (_, n) =>
  claim({
    claim_id: `C-${n}`,
    member_id: `M-${(n * 7) % 60}`,
    provider_id: `P-${n % (n % 5 === 0 ? 4 : 2)}`,
    claim_date: `2026-03-${String((n % 28) + 1).padStart(2, "0")}`,
    claim_items: [item({ claimed_amount: n % 3 === 0 ? 150 : 100 + (n % 11) })],
  }),
).concat(
  // one member who saw eight providers
  Array.from({ length: 8 }, (_, n) =>
    claim({ claim_id: `W-${n}`, member_id: "M-wide", provider_id: `P-${10 + n}` }),
  ),
);

describe("the member ranking", () => {
  const view = viewOf(claims);
  const decisions = analyzeBatch(view, FWA_DETECTORS, { flagThreshold: 0.5 });
  const ranking = memberRanking(view, decisions);
  const rows = ranking.rows(0, ranking.count);

  it("ranks every member once, in byRisk's order, with its own figures", () => {
    assert.equal(ranking.count, 61);
    const members = [...Array.from({ length: 60 }, (_, n) => `M-${n}`), "M-wide"];
    assert.deepEqual(rows.map((row) => row.id).sort(), members.sort());
    assert.deepEqual([...rows].sort(byRisk), rows);
    for (const row of rows) {
      const own = claims.filter((c) => c.member_id === row.id);
      assert.equal(row.claims, own.length, row.id);
      assert.equal(
        row.claimedAmount,
        own.reduce((sum, c) => sum + Math.round((c.claim_items[0]?.claimed_amount ?? 0) * 100), 0),
      );
      const providers = new Set(own.map((c) => c.provider_id)).size;
      assert.ok(
        row.reasons.every(
          (r) => r.code !== "FWA-RANK-PROVIDERS" || r.cause === `${providers} providers in the batch`,
        ),
        `${row.id}: ${JSON.stringify(row.reasons)}`,
      );
    }
  });

  it("names several providers as a reason where a member saw them", () => {
    const wide = rows.find((row) => row.id === "M-wide");
    assert.equal(
      wide?.reasons.find((r) => r.code === "FWA-RANK-PROVIDERS")?.cause,
      "8 providers in the batch",
    );
  });

  it("builds any page of rows alone, as the whole ranking gives them", () => {
    const paged = [ranking.rows(0, 7), ranking.rows(7, 50), ranking.rows(50, 1000)].flat();
    assert.deepEqual(paged, rows);
    assert.deepEqual(ranking.rows(61, 70), []);
  });
});
