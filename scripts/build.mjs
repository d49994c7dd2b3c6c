// `npm run build` (and `prepare`): compiles src/ into a new directory beside the one in use and then points
// dist at it in one atomic step, so a running server never finds a file missing; a build whose inputs have
// not changed since the last one does nothing. dist is a symlink to .build/<inputs' hash>.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";

const BUILDS = ".build";

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const inputs = [
  ...filesUnder("src"),
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "scripts/build.mjs",
].sort();
const hash = createHash("sha256");
for (const file of inputs) hash.update(`${file}\n`).update(readFileSync(file));
const id = hash.digest("hex").slice(0, 16);
const target = join(BUILDS, id);

const current = existsSync("dist") && lstatSync("dist").isSymbolicLink() ? readlinkSync("dist") : undefined;
if (current === target && existsSync(join(target, "cli.js"))) {
  console.log(`dist is up to date (${id})`);
  process.exit(0);
}

// built before (these very inputs): pointed at again, never rebuilt over, as a server may run from it
if (!existsSync(join(target, "cli.js"))) compileInto(target);

function compileInto(target) {
  const building = `${target}.partial-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const compiled = spawnSync("npx", ["tsc", "-p", "tsconfig.json", "--outDir", building], {
    stdio: "inherit",
  });
  if (compiled.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    process.exit(compiled.status ?? 1);
  }
  // the SQL migrations and the console's files travel beside the code that reads them
  cpSync("src/platform/db/migrations", join(building, "platform/db/migrations"), { recursive: true });
  cpSync("src/modules/console/assets", join(building, "modules/console/assets"), { recursive: true });
  chmodSync(join(building, "cli.js"), 0o755);
  bundleThreads(building);
  rmSync(target, { recursive: true, force: true });
  renameSync(building, target);
}

/**
 * The threads started per piece of work (an upload's checks, a batch's result pages, a model's fit) as one file each: loading the
 * compiled modules one by one took a new thread 0.3-0.5 s (TypeBox alone is some 700 files), which an
 * upload of 1,000,000 items waited for; bundled, 0.05 s. The database's thread starts once a process (PGlite's
 * WebAssembly compiled by the application's thread), so it stays as compiled.
 */
function bundleThreads(building) {
  for (const thread of [
    "modules/claims-batch/upload/check-thread.js",
    "modules/claims-batch/results-thread.js",
    "modules/claims-batch/detectors-thread.js",
    "modules/fwa-learning/fit-thread.js",
  ]) {
    const file = join(building, thread);
    buildSync({
      entryPoints: [file],
      outfile: file,
      allowOverwrite: true,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: "linked",
      logLevel: "warning",
    });
  }
}

// a dist directory of the old layout moves aside once; from then on dist is a link, replaced atomically
if (existsSync("dist") && !lstatSync("dist").isSymbolicLink())
  renameSync("dist", join(BUILDS, `legacy-${Date.now()}`));
const link = `dist.link-${process.pid}`;
rmSync(link, { force: true });
symlinkSync(target, link, "dir");
renameSync(link, "dist");
writeFileSync(join(BUILDS, "current"), `${id}\n`);

// older builds go, but never the one dist now names nor the one it named before: a server started from that
// one may still be running
const keep = new Set(["current", target.split("/").pop(), current?.split("/").pop()]);
for (const name of readdirSync(BUILDS))
  if (!keep.has(name) && !name.includes(".partial-"))
    rmSync(join(BUILDS, name), { recursive: true, force: true });
console.log(`dist -> ${target}`);
