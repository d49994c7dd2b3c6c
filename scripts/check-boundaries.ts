// `npm run lint`'s check of the boundaries between areas (docs/architecture.md section 2), read from the
// sources: the platform knows no module, a module reaches another only through its public face, modules
// import each other in no circle, and each table is written only by its owner. The engines' purity is
// biome's (biome.json). Usage: node --import tsx scripts/check-boundaries.ts [root]; exits 1 on a violation.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

export interface Violation {
  /** relative to the root, with forward slashes */
  file: string;
  line: number;
  message: string;
}

/** the files of a module (or of one of its sub-folders) another module may import */
const PUBLIC_FACE = new Set(["service.ts", "repo.ts", "schemas.ts", "events.ts"]);

/** the areas the platform must not know */
const ABOVE_PLATFORM = new Set(["module", "surfaces", "demo"]);

/** each table's owner: the one module (or the platform) whose code may write it */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  audit_log: "platform",
  events: "platform",
  event_deliveries: "platform",
  event_delivery_attempts: "platform",
  schema_migrations: "platform",
  diagnosis_edits: "adjudication-settings",
  tenant_settings: "adjudication-settings",
  claims_batches: "claims-batch",
  claims_batch_results: "claims-batch",
  claims_batch_spool_parts: "claims-batch",
  claims_subscriptions: "claims-batch",
  code_sets: "code-sets",
  code_set_entries: "code-sets",
  console_sessions: "console",
  fhir_attachments: "fhir",
  fhir_messages: "fhir",
  fhir_requests: "fhir",
  fwa_models: "fwa-learning",
  fwa_outcomes: "fwa-learning",
  fwa_provider_features: "fwa-learning",
  health_declarations: "health-declarations",
  member_history: "member-history",
  members: "members",
  networks: "networks",
  network_providers: "networks",
  network_counts: "networks",
  token_signing_keys: "oauth",
  policies: "policies",
  patient_policies: "policies",
  policy_bulk_jobs: "policy-bulk",
  policy_bulk_job_chunks: "policy-bulk",
  policy_bulk_job_errors: "policy-bulk",
  policy_holders: "policy-holders",
  policy_categories: "policy-templates",
  policy_benefits: "policy-templates",
  policy_sub_benefits: "policy-templates",
  price_lists: "price-lists",
  price_items: "price-lists",
  prior_authorizations: "prior-auth",
  prior_authorization_items: "prior-auth",
  prior_authorization_history: "prior-auth",
  diagnosis_service_pairs: "prior-auth",
  communications: "prior-auth",
  supporting_info: "prior-auth",
  information_requests: "prior-auth",
  medical_providers: "providers",
  tenants: "tenants",
  tenant_api_keys: "tenants",
  tenant_oauth_clients: "tenants",
  users: "users",
  sign_in_attempts: "users",
  webhooks: "webhooks",
};

/** where a file is: the platform, a module (by name), a surface, the demo, or elsewhere (roots, engines) */
interface Place {
  area: "platform" | "module" | "surfaces" | "demo" | "other";
  module?: string;
}

function placeOf(file: string): Place {
  const parts = file.split("/");
  if (parts[0] !== "src") return { area: "other" };
  if (parts[1] === "platform") return { area: "platform" };
  if (parts[1] === "modules" && parts.length > 3) return { area: "module", module: parts[2] as string };
  if (parts[1] === "surfaces") return { area: "surfaces" };
  if (parts[1] === "demo") return { area: "demo" };
  return { area: "other" };
}

/** who a file writes tables as: its module, the platform, or the area it is in */
const writerOf = (place: Place) => place.module ?? place.area;

/**
 * The text with its comments blanked (line breaks kept, so offsets keep their lines); strings, template
 * literals and regular expressions are kept as they are, so a `//` inside them is no comment.
 */
function withoutComments(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let n = from; n < to; n++) if (out[n] !== "\n") out[n] = " ";
  };
  // code (with the braces it opened) and template literals, innermost last: `${` opens code in a template
  const modes: ({ template: true } | { template: false; braces: number })[] = [
    { template: false, braces: 0 },
  ];
  let last = "";
  let n = 0;
  while (n < text.length) {
    const mode = modes[modes.length - 1] as (typeof modes)[number];
    const c = text[n] as string;
    const next = text[n + 1];
    if (mode.template) {
      if (c === "\\") n++;
      else if (c === "`") modes.pop();
      else if (c === "$" && next === "{") {
        modes.push({ template: false, braces: 0 });
        n++;
      }
      n++;
      last = c;
      continue;
    }
    if (c === "/" && (next === "/" || next === "*")) {
      const end = next === "/" ? text.indexOf("\n", n) : text.indexOf("*/", n + 2) + 2;
      const to = end < n + 2 ? text.length : end;
      blank(n, to);
      n = to;
      continue;
    }
    if (c === '"' || c === "'") {
      n++;
      while (n < text.length && text[n] !== c && text[n] !== "\n") n += text[n] === "\\" ? 2 : 1;
    } else if (c === "`") modes.push({ template: true });
    else if (c === "{") mode.braces++;
    else if (c === "}") {
      if (mode.braces === 0 && modes.length > 1) modes.pop();
      else mode.braces--;
    } else if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last))) {
      // a regular expression literal: on to its closing slash, past any character class
      let inClass = false;
      n++;
      while (n < text.length && text[n] !== "\n" && (inClass || text[n] !== "/")) {
        if (text[n] === "\\") n++;
        else if (text[n] === "[") inClass = true;
        else if (text[n] === "]") inClass = false;
        n++;
      }
    }
    if (!/\s/.test(c)) last = c;
    n++;
  }
  return out.join("");
}

/** the 1-based line of an offset */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let n = 0; n < offset; n++) if (text.charCodeAt(n) === 10) line++;
  return line;
}

interface Import {
  line: number;
  /** the file imported, relative to the root, or undefined when it is a package */
  target: string | undefined;
}

const IMPORTS =
  /(?:^|[^\w$.])(?:(?:import|export)\b[^;"'`]*?\bfrom\s*|import\s*\(\s*|import\s+)(["'])([^"'\n]+)\1/g;

/** every relative import and re-export of a file, resolved to the file it names */
function importsOf(root: string, file: string, code: string): Import[] {
  const found: Import[] = [];
  for (const match of code.matchAll(IMPORTS)) {
    const specifier = match[2] as string;
    const at = (match.index ?? 0) + match[0].lastIndexOf(specifier);
    if (!specifier.startsWith(".")) {
      found.push({ line: lineAt(code, at), target: undefined });
      continue;
    }
    const absolute = resolve(root, dirname(file), specifier).replace(/\.js$/, ".ts");
    const candidates = [absolute, `${absolute}.ts`, join(absolute, "index.ts")];
    const target = candidates.find((candidate) => candidate.endsWith(".ts") && existsSync(candidate));
    found.push({
      line: lineAt(code, at),
      target: relative(root, target ?? absolute)
        .split(sep)
        .join("/"),
    });
  }
  return found;
}

// statements that write a table, and `updateTenantRow`'s target (`table: "members"`, src/platform/db/sql.ts)
const WRITES =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)\b|\btable:\s*["'`]([a-z_][a-z0-9_]*)["'`]/g;
/** any SQL naming a table, or a string that is a table's name */
const MENTIONS =
  /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|USING)\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)\b|["'`]([a-z_][a-z0-9_]*)["'`]/g;

function* matchesOf(pattern: RegExp, code: string): Generator<{ name: string; line: number }> {
  for (const match of code.matchAll(pattern))
    yield { name: (match[1] ?? match[2]) as string, line: lineAt(code, match.index ?? 0) };
}

function sourceFiles(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(root, path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const MIGRATIONS = "src/platform/db/migrations";

/** the schema's migrations, where every table is created */
function migrationFiles(root: string): string[] {
  if (!existsSync(join(root, MIGRATIONS))) return [];
  return readdirSync(join(root, MIGRATIONS))
    .filter((name) => name.endsWith(".sql"))
    .map((name) => `${MIGRATIONS}/${name}`);
}

/** an edge of the modules' import graph, where it was first seen */
type Edges = Map<string, Map<string, { file: string; line: number }>>;

/** the modules' import cycles, one per strongly connected set of modules (Tarjan), each as its path */
function cyclesOf(edges: Edges): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module) as number);
    stack.push(module);
    for (const next of edges.get(module)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module) as number, low.get(next) as number));
      } else if (stack.includes(next))
        low.set(module, Math.min(low.get(module) as number, index.get(next) as number));
    }
    if (low.get(module) === index.get(module)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== module);
      if (component.length > 1) components.push(component);
    }
  };
  for (const module of [...edges.keys()].sort()) if (!index.has(module)) visit(module);
  // within a component, the shortest way from its first module back to it
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0] as string;
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const at = queue.shift() as string;
      for (const next of [...(edges.get(at)?.keys() ?? [])].sort()) {
        if (!members.has(next) || previous.has(next)) continue;
        previous.set(next, at);
        if (next === start) queue.length = 0;
        else queue.push(next);
      }
    }
    const between: string[] = [];
    for (let at = previous.get(start) as string; at !== start; at = previous.get(at) as string)
      between.unshift(at);
    return [start, ...between, start];
  });
}

/** every boundary violation under `root` (a checkout: its src/ is read) */
export function checkBoundaries(root: string): Violation[] {
  const violations: Violation[] = [];
  const edges: Edges = new Map();
  const owned = new Set(Object.keys(TABLE_OWNERS));
  for (const file of sourceFiles(root, "src").sort()) {
    const code = withoutComments(readFileSync(join(root, file), "utf8"));
    const place = placeOf(file);
    for (const { line, target } of importsOf(root, file, code)) {
      if (target === undefined) continue;
      const to = placeOf(target);
      if (place.area === "platform" && ABOVE_PLATFORM.has(to.area))
        violations.push({
          file,
          line,
          message: `the platform imports ${target}: it knows no module, surface or demo`,
        });
      if (place.module === undefined || to.module === undefined || to.module === place.module) continue;
      if (!PUBLIC_FACE.has(target.slice(target.lastIndexOf("/") + 1)))
        violations.push({
          file,
          line,
          message: `${place.module} imports ${target}, inside ${to.module}: another module is reached only through its ${[...PUBLIC_FACE].join(", ")}`,
        });
      const from = edges.get(place.module) ?? new Map();
      if (!from.has(to.module)) from.set(to.module, { file, line });
      edges.set(place.module, from);
    }
    const writer = writerOf(place);
    for (const { name, line } of matchesOf(WRITES, code)) {
      const owner = TABLE_OWNERS[name];
      if (owner === undefined)
        violations.push({
          file,
          line,
          message: `${writer} writes ${name}, a table with no owner in TABLE_OWNERS`,
        });
      else if (owner !== writer)
        violations.push({ file, line, message: `${writer} writes ${name}, which only ${owner} may write` });
    }
    if (place.area === "platform")
      for (const { name, line } of matchesOf(MENTIONS, code))
        if (owned.has(name) && TABLE_OWNERS[name] !== "platform")
          violations.push({
            file,
            line,
            message: `the platform names ${name}, a table of ${TABLE_OWNERS[name]}: it reaches module tables only through what modules give it`,
          });
  }
  for (const cycle of cyclesOf(edges))
    for (let n = 0; n + 1 < cycle.length; n++) {
      const at = edges.get(cycle[n] as string)?.get(cycle[n + 1] as string) as { file: string; line: number };
      violations.push({
        ...at,
        message: `modules import each other in a circle (${cycle.join(" -> ")}): here ${cycle[n]} imports ${cycle[n + 1]}`,
      });
    }
  for (const file of migrationFiles(root)) {
    const sql = readFileSync(join(root, file), "utf8").replace(/--[^\n]*/g, "");
    for (const match of sql.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g))
      if (!owned.has(match[1] as string))
        violations.push({
          file,
          line: lineAt(sql, match.index ?? 0),
          message: `${match[1]} has no owner: name it in TABLE_OWNERS (scripts/check-boundaries.ts)`,
        });
  }
  // by file and line, as an editor lists problems
  return violations.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = resolve(process.argv[2] ?? ".");
  const violations = checkBoundaries(root);
  for (const violation of violations)
    console.error(`${violation.file}:${violation.line}: ${violation.message}`);
  if (violations.length > 0) {
    console.error(`${violations.length} boundary violation(s)`);
    process.exit(1);
  }
  console.log("boundaries: every import and every table write is where it belongs");
}
