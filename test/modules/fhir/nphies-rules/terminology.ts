import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { csvRecords } from "./csv.js";

/** code system URL -> its codes; only systems whose codes the pack enumerates */
export type Terminology = Map<string, Set<string>>;

/** the implementer pack, resolved from the repository root (test/modules/fhir/nphies-rules -> /work/main) */
export const PACK_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "..",
  "..",
  "shared",
  "reference",
  "nphies",
);

/** the separate CSVs that each enumerate one code system: file -> column holding the code */
const CODE_LISTS: Record<string, string> = {
  "adjudication-error.csv": "Code",
  "rejection-reason.csv": "Detailed code",
  "benefit-category.csv": "Code",
  "benefit-type.csv": "Code",
  "body-site.csv": "Code",
  "fdi-oral-region.csv": "Code",
  "fdi-tooth-surface.csv": "Code",
  "route-of-admin.csv": "Code",
  "specialty.csv": "Code",
};

/**
 * HL7 spells these adjudication codes in lower case (R4 CodeSystem/adjudication, and every pack sample
 * uses `copay`); codesystems.csv writes `coPay`/`unallocDeduct`. Accept both.
 */
const HL7_SPELLINGS: Record<string, string[]> = {
  "http://terminology.hl7.org/CodeSystem/adjudication": ["copay", "unallocdeduct"],
};

/** "---", " - - - ", "-------": the CSV's mark for "codes listed elsewhere" */
const isPlaceholder = (code: string) => /^[-\s]+$/.test(code);

/** the system URL of a CSV cell: some start with a line break and a stray quote, one with "Code System: " */
const systemUrl = (cell: string) =>
  cell
    .replace(/^Code System:/i, "")
    .replace(/["\s]/g, "")
    .trim();

function add(terminology: Terminology, system: string, code: string): void {
  const codes = terminology.get(system) ?? new Set<string>();
  codes.add(code);
  terminology.set(system, codes);
}

/** codesystems.csv: the system is named on its first row only, the following rows carry codes */
function loadCodeSystems(terminology: Terminology, text: string, listed: Set<string>): void {
  const open = new Set<string>();
  let system = "";
  for (const record of csvRecords(text)) {
    const named = systemUrl(record["code system"] ?? "");
    if (named) system = named;
    const code = (record.code ?? "").trim();
    if (!system || !code) continue;
    // a placeholder or a sentence (v2-0203) instead of codes: the system is not enumerated here
    if (isPlaceholder(code) || code.length > 80) open.add(system);
    else add(terminology, system, code);
  }
  for (const system of open) if (!listed.has(system)) terminology.delete(system);
}

/** one separate CSV; `listed` collects the systems it enumerates */
function loadCodeList(terminology: Terminology, text: string, column: string, listed: Set<string>): void {
  let system = "";
  for (const record of csvRecords(text)) {
    const named = systemUrl(record.CodeSystem ?? "");
    if (named) system = named;
    const code = (record[column] ?? "").trim();
    if (system && code) {
      listed.add(system);
      add(terminology, system, code);
    }
  }
}

/** the pack's code systems, or undefined when the pack is absent */
export function loadTerminology(dir: string = PACK_DIR): Terminology | undefined {
  const folder = join(dir, "terminology");
  if (!existsSync(join(folder, "codesystems.csv"))) return undefined;
  const terminology: Terminology = new Map();
  const listed = new Set<string>();
  for (const [file, column] of Object.entries(CODE_LISTS)) {
    const path = join(folder, file);
    if (existsSync(path)) loadCodeList(terminology, readFileSync(path, "utf8"), column, listed);
  }
  loadCodeSystems(terminology, readFileSync(join(folder, "codesystems.csv"), "utf8"), listed);
  for (const [system, codes] of Object.entries(HL7_SPELLINGS)) {
    for (const code of codes) add(terminology, system, code);
  }
  // the NDC001..NDC086 list (older release of adjudication-reason, cited by Mizan) sits beside the pack
  const ndc = join(dir, "..", "nphies-adjudication-reasons.tsv");
  if (existsSync(ndc)) loadNdcReasons(terminology, readFileSync(ndc, "utf8"));
  return terminology;
}

/** NDC001..NDC086: what Mizan's engine cites; the same system's older release */
function loadNdcReasons(terminology: Terminology, text: string): void {
  for (const line of text.split("\n").slice(1)) {
    const code = line.split("\t")[0]?.trim();
    if (code) add(terminology, "http://nphies.sa/terminology/CodeSystem/adjudication-reason", code);
  }
}
