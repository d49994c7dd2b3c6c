import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exactDuplicateRule } from "../../../../src/engine/fwa/rules/exact-duplicate.js";
import { claim, item } from "../fixtures.js";
import { isRule, run } from "./fixtures.js";

describe("fwa rule: exact duplicates", () => {
  it("exact duplicates across claims: NDC069 citing the first claim; within a claim: NDC081", () => {
    const visit = item({ claimed_quantity: 2, claimed_amount: 150.5 });
    const hits = run(exactDuplicateRule, [
      claim({ claim_items: [visit, item({ service_code: "83036" })] }), // items 0, 1
      claim({ claim_id: "C-2", claim_items: [visit, visit] }), // items 2, 3: both repeat C-1's first item
      claim({ claim_id: "C-3", claim_items: [item({ service_code: "X1" }), item({ service_code: "X1" })] }), // 4, 5
      // one field apart from C-1's item each: member, provider, date, service, quantity, amount
      claim({ claim_id: "C-4", member_id: "M-2", claim_items: [visit] }),
      claim({ claim_id: "C-5", provider_id: "P-2", claim_items: [visit] }),
      claim({ claim_id: "C-6", claim_date: "2026-03-11", claim_items: [visit] }),
      claim({ claim_id: "C-7", claim_items: [{ ...visit, service_code: "99214" }] }),
      claim({ claim_id: "C-8", claim_items: [{ ...visit, claimed_quantity: 3 }] }),
      claim({ claim_id: "C-9", claim_items: [{ ...visit, claimed_amount: 150.51 }] }),
    ]);
    const what = "service 99213, quantity 2 and unit amount 150.50";
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "item 2",
          code: "NDC069",
          cause: `same member, provider, claim date 2026-03-10, ${what} as item 1 of the earlier claim C-1`,
        },
        {
          at: "item 3",
          code: "NDC069",
          cause: `same member, provider, claim date 2026-03-10, ${what} as item 1 of the earlier claim C-1`,
        },
        {
          at: "item 5",
          code: "NDC081",
          cause: "repeats item 1 of this claim: same service X1, quantity 1 and unit amount 150.00",
        },
      ],
    );
    for (const hit of hits) isRule(hit.finding, true);
  });

  it("exact duplicates hold up with many items and colliding buckets", () => {
    const claims = Array.from({ length: 3000 }, (_, c) =>
      claim({
        claim_id: `C-${c}`,
        member_id: `M-${c % 1000}`,
        claim_items: [item({ claimed_amount: c % 7 })],
      }),
    );
    const hits = run(exactDuplicateRule, claims);
    // members repeat every 1000 claims and amounts every 7: no two of 3000 claims agree on both
    assert.equal(hits.length, 0);
    const again = run(exactDuplicateRule, [
      ...claims,
      ...claims.map((c) => ({ ...c, claim_id: `${c.claim_id}-again` })),
    ]);
    assert.equal(again.length, 3000);
    assert.ok(again.every((hit, k) => hit.at === `item ${3000 + k}` && hit.cause.endsWith(` C-${k}`)));
  });
});
