import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { checkBoundaries, type Violation } from "../../scripts/check-boundaries.js";

/** a checkout of `files` (path -> text) in a directory of its own */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "mizan-boundaries-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  roots.push(root);
  return root;
}
const roots: string[] = [];

/** the files every fixture has: modules that each keep to themselves */
const CLEAN: Record<string, string> = {
  "src/platform/db/db.ts": "export interface Queryable {}\n",
  "src/platform/events/outbox.ts": [
    'import type { Queryable } from "../db/db.js";',
    "export const store = (tx: Queryable) => `INSERT INTO events (id) VALUES ($1)`;",
    "",
  ].join("\n"),
  "src/platform/db/migrations/0001_foundation.sql":
    "-- CREATE TABLE commented_out (id int);\nCREATE TABLE webhooks (id int);\n",
  "src/modules/webhooks/repo.ts": [
    "// the platform reaches these rows only through this module",
    "export const deactivate = `UPDATE webhooks SET is_active = false WHERE id = $1`;",
    "",
  ].join("\n"),
  "src/modules/webhooks/service.ts": 'export { deactivate } from "./repo.js";\n',
  "src/modules/prior-auth/workflow.ts": "export const cancel = () => `DELETE FROM prior_authorizations`;\n",
  "src/modules/prior-auth/service.ts": 'export { cancel } from "./workflow.js";\n',
  "src/modules/prior-auth/communications/service.ts": "export const send = () => 1;\n",
  "src/modules/fhir/tasks.ts": [
    'import { cancel } from "../prior-auth/service.js";',
    'import { send } from "../prior-auth/communications/service.js";',
    'import type { Queryable } from "../../platform/db/db.js";',
    '// import { cancel } from "../prior-auth/workflow.js"; INSERT INTO members',
    "/* UPDATE prior_authorizations SET status = 'cancelled' */",
    'export const url = "http://example.test/"; // INSERT INTO members',
    "export const run = (tx: Queryable) => [cancel, send, tx];",
    "",
  ].join("\n"),
};

/** the violations of a checkout of CLEAN with `changes`, as `file:line: message` */
function violationsWith(changes: Record<string, string>): string[] {
  return checkBoundaries(tree({ ...CLEAN, ...changes })).map(
    (violation: Violation) => `${violation.file}:${violation.line}: ${violation.message}`,
  );
}

describe("the boundary check (scripts/check-boundaries.ts)", () => {
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it("finds nothing where every module keeps to its own and reaches others through their public face", () => {
    assert.deepEqual(violationsWith({}), []);
  });

  it("refuses a platform that imports a module, a surface or the demo", () => {
    const found = violationsWith({
      "src/surfaces/api.ts": "export const api = 1;\n",
      "src/demo/seed.ts": "export const seed = 1;\n",
      "src/platform/events/delivery-job.ts": [
        'import { deactivate } from "../../modules/webhooks/service.js";',
        'import { api } from "../../surfaces/api.js";',
        "",
        'export { seed } from "../../demo/seed.js";',
        "export const job = [deactivate, api];",
        "",
      ].join("\n"),
    });
    assert.equal(found.length, 3, found.join("\n"));
    assert.match(
      found[0] as string,
      /^src\/platform\/events\/delivery-job\.ts:1: the platform imports src\/modules\/webhooks\/service\.ts/,
    );
    assert.match(found[1] as string, /^src\/platform\/events\/delivery-job\.ts:2: .*src\/surfaces\/api\.ts/);
    assert.match(found[2] as string, /^src\/platform\/events\/delivery-job\.ts:4: .*src\/demo\/seed\.ts/);
  });

  it("refuses a module reaching into another's internals, in any of its folders", () => {
    const found = violationsWith({
      "src/modules/prior-auth/communications/store.ts": "export const store = 1;\n",
      "src/modules/fhir/answers.ts": [
        'import { cancel } from "../prior-auth/workflow.js";',
        'import { store } from "../prior-auth/communications/store.js";',
        "export const answer = [cancel, store];",
        "",
      ].join("\n"),
    });
    assert.deepEqual(
      found.map((line) => line.split(": ")[0]),
      ["src/modules/fhir/answers.ts:1", "src/modules/fhir/answers.ts:2"],
    );
    assert.match(
      found[0] as string,
      /fhir imports src\/modules\/prior-auth\/workflow\.ts, inside prior-auth/,
    );
  });

  it("refuses modules that import each other in a circle, naming every import of it", () => {
    const found = violationsWith({
      "src/modules/prior-auth/repo.ts":
        'import type { Answer } from "../fhir/service.js";\nexport type A = Answer;\n',
      "src/modules/fhir/service.ts":
        'import { cancel } from "../prior-auth/service.js";\nexport type Answer = typeof cancel;\n',
    });
    assert.deepEqual(found, [
      "src/modules/fhir/service.ts:1: modules import each other in a circle (fhir -> prior-auth -> fhir): here fhir imports prior-auth",
      "src/modules/prior-auth/repo.ts:1: modules import each other in a circle (fhir -> prior-auth -> fhir): here prior-auth imports fhir",
    ]);
  });

  it("refuses a write to another module's table, or to a table nobody owns", () => {
    const found = violationsWith({
      "src/modules/fhir/repo.ts": [
        "export const write = [",
        "  `INSERT INTO prior_authorizations (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET id = $1`,",
        '  { table: "members", key: "member_id" },',
        "  `DELETE FROM fhir_messages`,",
        "  `UPDATE mystery SET x = 1`,",
        '  "https://example.test/", `DELETE FROM tenants`, // a slash in a string starts no comment',
        "];",
        "",
      ].join("\n"),
    });
    assert.deepEqual(found, [
      "src/modules/fhir/repo.ts:2: fhir writes prior_authorizations, which only prior-auth may write",
      "src/modules/fhir/repo.ts:3: fhir writes members, which only members may write",
      "src/modules/fhir/repo.ts:5: fhir writes mystery, a table with no owner in TABLE_OWNERS",
      "src/modules/fhir/repo.ts:6: fhir writes tenants, which only tenants may write",
    ]);
  });

  it("refuses a platform that names a module's table, reading or writing it", () => {
    const found = violationsWith({
      "src/platform/events/deliveries.ts": [
        "export const read = `SELECT d.id, w.webhook_url FROM event_deliveries d",
        "  LEFT JOIN webhooks w ON w.id = d.webhook_id`;",
        "export const gone = `UPDATE claims_subscriptions SET status = 'inactive'`;",
        "",
      ].join("\n"),
    });
    assert.deepEqual(found, [
      "src/platform/events/deliveries.ts:2: the platform names webhooks, a table of webhooks: it reaches module tables only through what modules give it",
      "src/platform/events/deliveries.ts:3: platform writes claims_subscriptions, which only claims-batch may write",
      "src/platform/events/deliveries.ts:3: the platform names claims_subscriptions, a table of claims-batch: it reaches module tables only through what modules give it",
    ]);
  });

  it("refuses a table created without an owner", () => {
    const found = violationsWith({
      "src/platform/db/migrations/0002_more.sql": "\nCREATE TABLE IF NOT EXISTS unowned_things (id int);\n",
    });
    assert.deepEqual(found, [
      "src/platform/db/migrations/0002_more.sql:2: unowned_things has no owner: name it in TABLE_OWNERS (scripts/check-boundaries.ts)",
    ]);
  });

  it("prints each violation with its file and line and exits 1; exits 0 on a clean checkout", () => {
    const run = (root: string) =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/check-boundaries.ts", root], {
        encoding: "utf8",
      });
    const clean = run(tree(CLEAN));
    assert.equal(clean.status, 0, clean.stderr);
    const broken = run(
      tree({
        ...CLEAN,
        "src/modules/fhir/repo.ts": "export const write = `INSERT INTO webhooks (id) VALUES (1)`;\n",
      }),
    );
    assert.equal(broken.status, 1);
    assert.equal(
      broken.stderr,
      "src/modules/fhir/repo.ts:1: fhir writes webhooks, which only webhooks may write\n1 boundary violation(s)\n",
    );
  });
});
