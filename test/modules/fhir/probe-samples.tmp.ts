import { readdirSync, readFileSync } from "node:fs";
import { after, before, it } from "node:test";
import { startTestApp, type TestContext } from "../../helpers.js";
import { postMessage, setUpFhirTenant } from "./fixtures.js";

const DIR = "../shared/reference/nphies/samples";
let ctx: TestContext;
before(async () => { ctx = await startTestApp(); await setUpFhirTenant(ctx.tenant); });
after(() => ctx.close());
it("probe", async () => {
  for (const file of readdirSync(DIR).sort()) {
    const res = await postMessage(ctx, ctx.tenant, readFileSync(`${DIR}/${file}`, "utf8"));
    const body = res.body.length > 600 ? res.body.slice(0, 600) : res.body;
    console.log(`\n### ${file}: ${res.statusCode}\n${res.statusCode === 200 ? "" : body}`);
  }
});
