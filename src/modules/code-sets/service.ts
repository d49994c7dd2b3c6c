import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
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
 * The diagnosis lookup of prior authorization (CONTRACT.md section 6): once the tenant has loaded an
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

export function listCodeSets(db: Db, tenantId: number) {
  return codeSetRepo.list(db, tenantId);
}
