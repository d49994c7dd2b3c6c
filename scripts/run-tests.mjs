// Node 20's test runner does not expand globs: collect the test files here and hand them over.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

function collect(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : collect(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const filter = process.argv.slice(2);
const files = [...collect("test"), ...collect("src")]
  .filter((file) => filter.length === 0 || filter.some((f) => file.includes(f)))
  .sort();
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], {
  stdio: "inherit",
});

// on PostgreSQL each test process kept its jobs in a schema of its own (test/helpers.ts): drop them
if (process.env.TEST_DATABASE_URL) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  const { rows } = await client.query(
    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgboss\\_test\\_%'",
  );
  for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  await client.end();
}
process.exit(result.status ?? 1);
