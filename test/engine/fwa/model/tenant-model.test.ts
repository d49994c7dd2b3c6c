import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boostedContributions, boostedLogit } from "../../../../src/engine/fwa/model/boosting.js";
import { type LabelledExample, PROVIDER_FEATURES } from "../../../../src/engine/fwa/model/provider-model.js";
import {
  BOOSTING_MIN,
  featureWeights,
  fitTenantModel,
  isBoosted,
  TENANT_FEATURES,
  tenantScore,
} from "../../../../src/engine/fwa/model/tenant-model.js";
import { seededRandom } from "../../../../src/engine/fwa/stats/random.js";

/** fraud when the first rich feature is in a middle band: a line cannot draw it */
function examples(n: number, seed: number, width = TENANT_FEATURES.length): LabelledExample[] {
  const random = seededRandom(seed);
  const a = PROVIDER_FEATURES.length;
  return Array.from({ length: n }, (_, i) => {
    const features = Array.from({ length: width }, () => random());
    const fraud = Math.abs((features[a] as number) - 0.5) < 0.2;
    return { features, fraud: random() < (fraud ? 0.9 : 0.1), provider: `P-${i % (n / 2)}` };
  });
}

describe("a tenant's learned model", () => {
  it("keeps the trees when their provider-grouped validation beats the logistic regression's", () => {
    const fit = fitTenantModel(examples(400, 1));
    assert.deepEqual(
      fit.candidates.map((c) => c.kind),
      ["logistic", "boosted-trees"],
    );
    assert.ok(isBoosted(fit.model), "the stored model says its kind");
    assert.equal(fit.model.kind, "boosted-trees");
    assert.ok(fit.validation.roc_auc > 0.8, String(fit.validation.roc_auc));
    assert.ok(fit.validation.roc_auc > (fit.candidates[0]?.validation.roc_auc as number));
    // GET /fwa/model's shape: a name and a weight (logit per standard deviation) per feature
    const weights = featureWeights(fit.model);
    assert.deepEqual(
      weights.map((w) => w.name),
      [...TENANT_FEATURES],
    );
    assert.ok(weights.every((w) => Number.isFinite(w.weight)));
  });

  it("scores a calibrated probability whose logit the features' contributions make up", () => {
    const { model } = fitTenantModel(examples(400, 1));
    assert.ok(isBoosted(model));
    const x = examples(1, 9)[0]?.features as number[];
    const { risk, contributions } = tenantScore(model, x);
    const { bias } = boostedContributions(model, x);
    const logit = Math.log(risk / (1 - risk));
    const sum = contributions.reduce((s, c) => s + c, model.platt.a * bias + model.platt.b);
    assert.ok(Math.abs(logit - sum) < 1e-9, `${logit} vs ${sum}`);
    assert.ok(Math.abs(logit - (model.platt.a * boostedLogit(model, x) + model.platt.b)) < 1e-9);
  });

  it("fits the logistic regression alone below the trees' minimum or on examples without rich features", () => {
    const few = fitTenantModel(examples(BOOSTING_MIN.examples - 2, 2));
    assert.deepEqual(
      few.candidates.map((c) => c.kind),
      ["logistic"],
    );
    assert.equal(few.model.kind, "logistic");
    const older = fitTenantModel(examples(400, 3, PROVIDER_FEATURES.length));
    assert.deepEqual(
      older.candidates.map((c) => c.kind),
      ["logistic"],
    );
    assert.ok(!isBoosted(older.model));
    const { risk, contributions } = tenantScore(older.model, older.model.means);
    assert.ok(Math.abs(risk - 1 / (1 + Math.exp(-older.model.intercept))) < 1e-12);
    assert.ok(contributions.every((c) => c === 0));
  });
});
