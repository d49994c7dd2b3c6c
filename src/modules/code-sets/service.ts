import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError, refusal } from "../../platform/http/errors.js";
import type { CodeSetEntry } from "../../reference/code-set-file.js";
import { isCodeToken, isWellFormedIcd10, normalizeIcd10 } from "../../reference/icd10.js";
import { codeSetRepo } from "./repo.js";
import type { CodeSystem } from "./schemas.js";

/**
 * Normalizes and checks every entry before anything is written: an import with anything that is not a code
 * (a stray header, a shifted column) is refused whole, naming the lines (or indexes) at fault. Codes need
 * not follow ICD-10 structure: the insurer's list is the authority once loaded. Later duplicates win.
 */
export function prepareEntries(entries: CodeSetEntry[], where: (index: number) => string) {
  const problems: string[] = [];
  const byCode = new Map<string, CodeSetEntry>();
  entries.forEach((entry, index) => {
    if (!isCodeToken(entry.code)) {
      problems.push(
        `${where(index)}: code "${entry.code}" is not a code (3 to 8 letters and digits, one optional dot)`,
      );
      return;
    }
    const code = normalizeIcd10(entry.code);
    byCode.set(code, { code, description: entry.description });
  });
  if (problems.length > 0)
    throw refusal("E_BAD_REQUEST_400", problems, `${problems.length} invalid code(s) in the import`);
  if (byCode.size === 0)
    throw new AppError("E_BAD_REQUEST_400", "the import holds no codes", ["the import holds no codes"]);
  return [...byCode.values()];
}

export async function importCodeSet(
  db: Db,
  actor: TenantActor,
  system: CodeSystem,
  entries: CodeSetEntry[],
  options: { mode?: "merge" | "replace"; where?: (index: number) => string } = {},
): Promise<{ system: CodeSystem; imported: number; total: number }> {
  const prepared = prepareEntries(entries, options.where ?? ((index) => `entry ${index}`));
  const mode = options.mode ?? "merge";
  return db.transaction(async (tx) => {
    await codeSetRepo.ensureSet(tx, actor.tenantId, system);
    if (mode === "replace") await codeSetRepo.clear(tx, actor.tenantId, system);
    await codeSetRepo.upsertEntries(tx, actor.tenantId, system, prepared);
    const total = await codeSetRepo.refreshCount(tx, actor.tenantId, system);
    await recordAudit(tx, actor, {
      action: "code_set.import",
      entityType: "code_set",
      entityKey: system,
      details: { mode, imported: prepared.length, total },
    });
    return { system, imported: prepared.length, total };
  });
}

export interface DiagnosisLookup {
  code: string;
  description: string | null;
  matchedBy: "code_set" | "structure";
}

/**
 * The diagnosis lookup of prior authorization (docs/operator-contract.md section 6): once the tenant has loaded an
 * ICD-10 set, a code exists when it is in the set; until then, when it is well formed. Undefined: unknown.
 */
export async function findDiagnosis(
  db: Db,
  tenantId: number,
  rawCode: string,
): Promise<DiagnosisLookup | undefined> {
  if (!isCodeToken(rawCode)) return undefined;
  const code = normalizeIcd10(rawCode);
  const { loaded, description } = await codeSetRepo.lookup(db, tenantId, "icd10", code);
  if (!loaded)
    return isWellFormedIcd10(rawCode) ? { code, description: null, matchedBy: "structure" } : undefined;
  return description === null ? undefined : { code, description, matchedBy: "code_set" };
}

export async function requireDiagnosis(db: Db, tenantId: number, rawCode: string): Promise<DiagnosisLookup> {
  const found = await findDiagnosis(db, tenantId, rawCode);
  if (found === undefined) throw new AppError("E_EPA_02", `Diagnosis ${rawCode} not found`);
  return found;
}

/**
 * Every diagnosis of a request in one round trip, in the order given; an unknown one is 404 E_EPA_02
 * naming it (the first unknown, and all of them in the details).
 */
export async function requireDiagnoses(
  db: Queryable,
  tenantId: number,
  rawCodes: readonly string[],
): Promise<DiagnosisLookup[]> {
  const codes = rawCodes.map((raw) => (isCodeToken(raw) ? normalizeIcd10(raw) : undefined));
  const { loaded, found } = await codeSetRepo.lookupMany(
    db,
    tenantId,
    "icd10",
    codes.filter((code) => code !== undefined),
  );
  const lookups: DiagnosisLookup[] = [];
  const unknown: string[] = [];
  rawCodes.forEach((raw, index) => {
    const code = codes[index];
    if (code !== undefined && loaded && found.has(code))
      lookups.push({ code, description: found.get(code) ?? null, matchedBy: "code_set" });
    else if (code !== undefined && !loaded && isWellFormedIcd10(raw))
      lookups.push({ code, description: null, matchedBy: "structure" });
    else unknown.push(raw);
  });
  if (unknown.length > 0)
    throw new AppError(
      "E_EPA_02",
      `Diagnosis ${unknown[0]} not found`,
      unknown.map((raw) => `diagnosis ${raw} not found`),
    );
  return lookups;
}

export function listCodeSets(db: Db, tenantId: number) {
  return codeSetRepo.list(db, tenantId);
}
