import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildApp } from "../../src/app.js";
import { ENGINE_SETTINGS_CHANNEL } from "../../src/modules/adjudication-settings/engine-settings.js";
import { NETWORKS_CHANNEL } from "../../src/modules/networks/names.js";
import type { Db } from "../../src/platform/db/db.js";
import { idleJobQueue, openTestDb, testConfig } from "../helpers.js";

/** the database with its listeners counted: channel -> listeners started and not yet released */
function countingListeners(db: Db): { db: Db; open: Map<string, number> } {
  const open = new Map<string, number>();
  const change = (channel: string, by: number) => open.set(channel, (open.get(channel) ?? 0) + by);
  const listen: Db["listen"] = async (channel, onPayload) => {
    const stop = await db.listen(channel, onPayload);
    change(channel, 1);
    return async () => {
      change(channel, -1);
      await stop();
    };
  };
  return { db: { ...db, listen }, open };
}

describe("areas' start-up and shutdown work", () => {
  it("starts the areas' cache listeners with the app and releases every one on app.close()", async () => {
    const db = await openTestDb();
    try {
      const counted = countingListeners(db);
      const app = await buildApp(testConfig(), counted.db, idleJobQueue(db));
      assert.equal(counted.open.get(NETWORKS_CHANNEL), 1, "the networks area listens");
      assert.equal(counted.open.get(ENGINE_SETTINGS_CHANNEL), 1, "the adjudication-settings area listens");
      await app.close();
      for (const [channel, listeners] of counted.open) assert.equal(listeners, 0, `${channel} released`);
    } finally {
      await db.close();
    }
  });
});
