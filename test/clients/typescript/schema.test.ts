import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { serviceOpenApi } from "../../../scripts/openapi.js";

const CLIENT = "clients/typescript";

/** the client's document and types are generated: a change to the service's routes must regenerate them */
describe("@mizan/client: the generated files follow the service", () => {
  it("openapi.json is the service's current document (else: npm run openapi)", async () => {
    assert.equal(await serviceOpenApi(), readFileSync(join(CLIENT, "openapi.json"), "utf8"));
  });

  it("src/schema.ts is what openapi-typescript writes from openapi.json (else: npm run openapi)", (t) => {
    const bin = ["node_modules/.bin/openapi-typescript", `${CLIENT}/node_modules/.bin/openapi-typescript`];
    if (!bin.some((path) => existsSync(path))) {
      t.skip("openapi-typescript is not installed in the workspace (npm ci installs it)");
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "mizan-client-schema-"));
    try {
      const out = join(dir, "schema.ts");
      const run = spawnSync(
        "npm",
        ["exec", "--workspace", "@mizan/client", "--", "openapi-typescript", "openapi.json", "-o", out],
        { encoding: "utf8" },
      );
      assert.equal(run.status, 0, run.stderr);
      assert.equal(readFileSync(out, "utf8"), readFileSync(join(CLIENT, "src/schema.ts"), "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
