import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import pino from "pino";
import { logSerializers } from "../../src/platform/logging.js";
import { openTestDb } from "../helpers.js";

describe("logging", () => {
  it("logs a database error's code and constraint, never the values of the statement that failed", async () => {
    const db = await openTestDb();
    const lines: string[] = [];
    const log = pino(
      { serializers: logSerializers },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    try {
      await db.query(
        "CREATE TEMP TABLE secrets_probe (id int PRIMARY KEY, secret text NOT NULL CHECK (length(secret) < 5))",
      );
      // run twice, so the embedded database prepares it and writes its values out as literals
      for (const secret of ["whsec_TOPSECRET1", "whsec_TOPSECRET2"]) {
        try {
          await db.query("INSERT INTO secrets_probe (id, secret) VALUES ($1, $2)", [1, secret]);
          assert.fail("the check refuses the row");
        } catch (error) {
          log.error({ err: error }, "unexpected failure");
        }
      }
      const logged = lines.join("");
      assert.doesNotMatch(logged, /TOPSECRET/);
      assert.match(logged, /"code":"23514"/);
      assert.match(logged, /secrets_probe_secret_check/);
    } finally {
      await db.close();
    }
  });
});
