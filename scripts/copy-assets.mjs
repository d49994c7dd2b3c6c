// The compiler emits only JavaScript; the SQL migrations travel beside the code that reads them.
import { chmodSync, cpSync } from "node:fs";

cpSync("src/platform/db/migrations", "dist/platform/db/migrations", { recursive: true });
// the reviewer console's style sheet and script, served from the package
cpSync("src/modules/console/assets", "dist/modules/console/assets", { recursive: true });
// `npx mizan` runs the bin directly
chmodSync("dist/cli.js", 0o755);
