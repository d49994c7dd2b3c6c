import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { averagePath, isolationScores } from "../../../../src/engine/fwa/model/isolation-forest.js";
import { seededRandom } from "../../../../src/engine/fwa/stats/random.js";

describe("fwa isolation forest", () => {
  it("isolates the odd row first and is deterministic", () => {
    const n = 300;
    const random = seededRandom(1);
    const rows = new Float64Array(n * 2);
    for (let k = 0; k < n; k += 1) {
      rows[2 * k] = random();
      rows[2 * k + 1] = random();
    }
    rows[2 * 17] = 6;
    rows[2 * 17 + 1] = 5;
    const options = { trees: 100, sampleSize: 128, seed: 9 };
    const scores = isolationScores(rows, n, 2, options);
    const best = scores.indexOf(Math.max(...scores));
    assert.equal(best, 17);
    assert.ok((scores[17] as number) > 0.7, `${scores[17]}`);
    const sorted = [...scores].sort((a, b) => a - b);
    assert.ok((sorted[n >> 1] as number) < 0.5);
    assert.deepEqual(isolationScores(rows, n, 2, options), scores);
    assert.equal(averagePath(1), 0);
    assert.equal(averagePath(2), 1);
    assert.deepEqual([...isolationScores(new Float64Array(0), 0, 2, options)], []);
  });
});
