// `npm run openapi`: writes the service's OpenAPI document to clients/typescript/openapi.json (the client's
// `generate` script then writes its types from it; a test fails when either drifts from the service).
import { writeFileSync } from "node:fs";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { migrate } from "../src/platform/db/migrate.js";
import { openDatabase } from "../src/platform/db/open.js";
import { createJobRunner } from "../src/platform/jobs/queue.js";

/** the service's OpenAPI document, as `GET /openapi.json` answers it (servers: the default public URL) */
export async function serviceOpenApi(): Promise<string> {
  const db = await openDatabase({ databaseUrl: undefined, dataDir: undefined });
  try {
    await migrate(db);
    const config = loadConfig({ LOG_LEVEL: "silent", MIZAN_ADMIN_TOKEN: "openapi-document-only" });
    const jobs = createJobRunner({
      db,
      databaseUrl: undefined,
      concurrency: 0,
      definitions: [],
      schema: "pgboss",
    });
    const app = await buildApp(config, db, jobs.queue);
    await app.ready();
    const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    await app.close();
    return document;
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const document = await serviceOpenApi();
  writeFileSync("clients/typescript/openapi.json", document);
  console.log("wrote clients/typescript/openapi.json");
}
