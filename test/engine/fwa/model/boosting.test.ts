import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  boostedContributions,
  boostedLogit,
  boostedProbability,
  fitBoosted,
  fitPlatt,
  trainBoosted,
} from "../../../../src/engine/fwa/model/boosting.js";
import { groupedFolds } from "../../../../src/engine/fwa/model/quality.js";
import { seededRandom } from "../../../../src/engine/fwa/stats/random.js";
import { sigmoid } from "../../../../src/engine/fwa/stats/robust.js";

/** y depends on x0 alone above 0.5 and on an interaction of x1 and x2; x3 is noise */
function data(n: number, seed: number) {
  const r = seededRandom(seed);
  const rows = Array.from({ length: n }, () => [r(), r(), r(), r()]);
  const labels = rows.map(
    ([a, b, c]) =>
      ((a as number) > 0.6 ? 0.85 : (b as number) > 0.5 && (c as number) > 0.5 ? 0.7 : 0.1) > r(),
  );
  return { rows, labels, groups: rows.map((_, i) => `p${i % (n / 2)}`) };
}
const names = ["x0", "x1", "x2", "noise"];

describe("gradient-boosted trees", () => {
  it("learns a threshold and an interaction that a line cannot, and ranks held-out rows", () => {
    const train = data(1000, 1);
    const test = data(1000, 2);
    const model = fitBoosted(train.rows, train.labels, names, { trees: 150 });
    const pos = test.rows.filter((_, i) => test.labels[i]).map((x) => boostedLogit(model, x));
    const neg = test.rows.filter((_, i) => !test.labels[i]).map((x) => boostedLogit(model, x));
    let wins = 0;
    for (const p of pos) for (const q of neg) wins += p > q ? 1 : p === q ? 0.5 : 0;
    assert.ok(wins / (pos.length * neg.length) > 0.8, `held-out ROC-AUC ${wins / (pos.length * neg.length)}`);
    assert.ok((model.importance[3] as number) < 0.1, "noise matters little");
    assert.ok((model.importance[0] as number) > (model.importance[3] as number));
    assert.ok(Math.abs(model.importance.reduce((s, v) => s + v, 0) - 1) < 1e-9);
  });

  it("is deterministic for a seed and changes with it", () => {
    const { rows, labels } = data(300, 3);
    const a = fitBoosted(rows, labels, names, { trees: 30, seed: 5 });
    const b = fitBoosted(rows, labels, names, { trees: 30, seed: 5 });
    const c = fitBoosted(rows, labels, names, { trees: 30, seed: 6 });
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.trees, c.trees);
  });

  it("splits every logit exactly into a bias and per-feature contributions", () => {
    const { rows, labels } = data(400, 4);
    const model = fitBoosted(rows, labels, names, { trees: 60 });
    for (const x of rows.slice(0, 50)) {
      const { bias, contributions } = boostedContributions(model, x);
      const sum = contributions.reduce((s, v) => s + v, bias);
      assert.ok(Math.abs(sum - boostedLogit(model, x)) < 1e-9);
    }
    // a row far above x0's threshold owes most of its score to x0
    const { contributions } = boostedContributions(model, [0.95, 0.1, 0.1, 0.5]);
    assert.equal(contributions.indexOf(Math.max(...contributions)), 0);
  });

  it("starts from the prior log-odds and handles a constant feature", () => {
    const rows = [[1], [1], [1], [1]];
    const model = fitBoosted(rows, [true, false, false, false], ["c"], { trees: 5 });
    assert.ok(Math.abs(model.base - Math.log(1 / 3)) < 1e-12);
    assert.ok(
      model.trees.every((t) => t.feature.length === 1),
      "no split on a constant",
    );
  });

  it("Platt scaling recovers a known scale and offset", () => {
    const r = seededRandom(9);
    const scores = Array.from({ length: 4000 }, () => 6 * r() - 3);
    const labels = scores.map((s) => r() < sigmoid(2 * s - 1));
    const { a, b } = fitPlatt(scores, labels);
    assert.ok(Math.abs(a - 2) < 0.3, `a ${a}`);
    assert.ok(Math.abs(b + 1) < 0.3, `b ${b}`);
  });

  it("keeps a group's examples in one fold, stratified by class", () => {
    const groups = ["a", "a", "b", "b", "c", "d", "e", "f", "g", "h"];
    const labels = [true, false, false, false, true, true, false, false, false, false];
    const folds = groupedFolds(groups, labels, 2, 1);
    assert.equal(folds.size, 8);
    const fraudFolds = ["a", "c", "d"].map((g) => folds.get(g));
    assert.ok(fraudFolds.includes(0) && fraudFolds.includes(1));
  });

  it("trains a calibrated model with grouped validation, within time on 10,000 examples", () => {
    const { rows, labels, groups } = data(10_000, 11);
    const started = performance.now();
    const { model, validation } = trainBoosted(rows, labels, groups, names, {}, 5);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 60, `${seconds} s`);
    assert.ok(validation.roc_auc > 0.8);
    const p = boostedProbability(model, [0.9, 0.1, 0.1, 0.5]);
    assert.ok(p > 0.7 && p < 0.95, `calibrated ${p} near 0.85`);
  });
});
