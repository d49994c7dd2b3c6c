/** What the detector tests share: a detector run on claims, its findings read back, and common batches. */
import assert from "node:assert/strict";
import { claimIdOf } from "../../../../src/engine/fwa/columns/columnar.js";
import { isoOfDay } from "../../../../src/engine/fwa/columns/days.js";
import type { ColumnarBatchView, Detector, Finding } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item, viewOf } from "../fixtures.js";

export interface Run {
  view: ColumnarBatchView;
  /** findings by item index */
  items: Map<number, Finding[]>;
  /** entity scores by id text */
  providers: Map<string, number>;
  members: Map<string, number>;
}

export function run(detector: Detector, claims: BatchClaimInput[]): Run {
  const view = viewOf(claims);
  const items = new Map<number, Finding[]>();
  const add = (i: number, finding: Finding) => items.set(i, [...(items.get(i) ?? []), finding]);
  const providers = new Map<string, number>();
  const members = new Map<string, number>();
  detector.run(view, {
    item: add,
    claim: (c, finding) => {
      for (let i = view.firstItem[c] as number; i < (view.firstItem[c + 1] as number); i += 1)
        add(i, finding);
    },
    entity: (kind, id, score) => {
      const scores = kind === "provider" ? providers : members;
      const text = view.strings[id] as string;
      scores.set(text, Math.max(scores.get(text) ?? 0, score));
    },
  });
  return { view, items, providers, members };
}

/** the claim ids whose items have findings of `code` */
export function claimsWith(result: Run, code: string): string[] {
  const ids = new Set<string>();
  for (const [i, findings] of result.items) {
    if (findings.some((f) => f.code === code)) {
      ids.add(claimIdOf(result.view, result.view.itemClaim[i] as number));
    }
  }
  return [...ids].sort();
}

export const only = (result: Run): Finding[] => [...result.items.values()].flat();

/** every finding is a statistical flag: FLAG, source ai, FWA, a score in (0, 1] */
export function isFlag(finding: Finding): void {
  assert.equal(finding.typeDecision, "FLAG");
  assert.equal(finding.source, "ai");
  assert.equal(finding.fwa, true);
  assert.ok(finding.score > 0 && finding.score <= 1, `score ${finding.score}`);
}

export const day = (offset: number) => isoOfDay(Date.UTC(2026, 2, 1) / 86_400_000 + offset);

/** `n` plain claims of one service at `price`, members and providers varied */
export const priced = (n: number, code: string, price: (k: number) => number, quantity = (_k: number) => 1) =>
  Array.from({ length: n }, (_, k) =>
    claim({
      claim_id: `C-${code}-${k}`,
      member_id: `M-${k}`,
      provider_id: `P-${k % 5}`,
      claim_date: day(k % 20),
      claim_items: [item({ service_code: code, claimed_amount: price(k), claimed_quantity: quantity(k) })],
    }),
  );

/** 60 ordinary claims of two items, members M-0..M-59 */
export const background = () =>
  Array.from({ length: 60 }, (_, k) =>
    claim({
      claim_id: `B-${k}`,
      member_id: `M-${k}`,
      provider_id: `P-${k % 6}`,
      claim_date: day(k % 28),
      claim_items: [
        item({ service_code: "99213" }),
        item({ service_code: `LAB-${k % 10}`, claimed_amount: 40 }),
      ],
    }),
  );
