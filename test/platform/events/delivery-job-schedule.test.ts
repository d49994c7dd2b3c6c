import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retryDelayMs } from "../../../src/platform/events/delivery-job.js";

describe("delivery schedule", () => {
  it("doubles from the first delay, spread by +-25 %, capped at 6 hours", () => {
    assert.equal(retryDelayMs(1, 5_000, 0.5), 5_000);
    assert.equal(retryDelayMs(2, 5_000, 0.5), 10_000);
    assert.equal(retryDelayMs(5, 5_000, 0.5), 80_000);
    assert.equal(retryDelayMs(1, 5_000, 0), 3_750);
    assert.equal(retryDelayMs(1, 5_000, 1), 6_250);
    assert.equal(retryDelayMs(20, 5_000, 0.5), 6 * 3600_000);
    assert.equal(retryDelayMs(200, 5_000, 1), 7.5 * 3600_000);
  });

  it("keeps retrying for at least 24 hours with the default settings", () => {
    // the shortest possible schedule: every jitter at its lowest
    let elapsed = 0;
    let attempt = 1;
    while (elapsed < 86_400_000) elapsed += retryDelayMs(attempt++, 5_000, 0);
    assert.ok(attempt >= 14 && attempt <= 20, `${attempt} attempts`);
  });
});
