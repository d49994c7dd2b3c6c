import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { refusal } from "../../platform/http/errors.js";
import { isCodeToken, normalizeIcd10 } from "../../reference/icd10.js";
import { announceChange, engineSettings } from "./engine-settings.js";
import { diagnosisEditRepo, fwaFlagThreshold, settingsRepo } from "./repo.js";
import type { EditInput, FwaSettingsInput, SettingsInput } from "./schemas.js";

// the settings the prior-authorization engine decides with, as prior-auth loads them
export { engineSettings } from "./engine-settings.js";

export async function getSettings(db: Db, tenantId: number) {
  const settings = await engineSettings.loadSettings(db, tenantId);
  return {
    auto_approval_threshold: settings.autoApprovalThreshold,
    follow_up_days: settings.followUpDays,
    duplicate_window_days: settings.duplicateWindowDays,
    lightweight_retention_days: settings.lightweightRetentionDays,
  };
}

export async function updateSettings(db: Db, actor: TenantActor, input: SettingsInput) {
  await db.transaction(async (tx) => {
    await settingsRepo.upsert(tx, actor.tenantId, input);
    await announceChange(tx, actor.tenantId);
    await recordAudit(tx, actor, {
      action: "settings.prior-auth.update",
      entityType: "tenant-settings",
      entityKey: "prior-auth",
      details: { ...input },
    });
  });
  return getSettings(db, actor.tenantId);
}

export async function getFwaSettings(db: Db, tenantId: number) {
  return { flag_threshold: await fwaFlagThreshold(db, tenantId) };
}

export async function updateFwaSettings(db: Db, actor: TenantActor, input: FwaSettingsInput) {
  await db.transaction(async (tx) => {
    await settingsRepo.upsert(tx, actor.tenantId, { fwa_flag_threshold: input.flag_threshold });
    await recordAudit(tx, actor, {
      action: "settings.fwa.update",
      entityType: "tenant-settings",
      entityKey: "fwa",
      details: { ...input },
    });
  });
  return getFwaSettings(db, actor.tenantId);
}

/** the age bands and sexes of the CMS Medicare Code Editor's simple diagnosis edits */
const MCE_EDITS: Record<string, Omit<EditInput, "code">> = {
  Female_Only: { sex: "FEMALE" },
  Male_Only: { sex: "MALE" },
  Newborn_Only: { newborn: true, min_age: 0, max_age: 0 },
  Pediatric_Only: { min_age: 0, max_age: 17 },
  Maternity_Only: { maternity: true, sex: "FEMALE", min_age: 12, max_age: 55 },
  Adult_Only: { min_age: 15, max_age: 124 },
};

/** MCE TSV (a header naming MCE_Edit_Type and ICD_Code; ICD_Code_Type D rows) as edits merged per code */
export function parseMceEdits(text: string): { edits: EditInput[]; skipped: number } {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = (lines[0] ?? "").split("\t");
  const type = header.indexOf("MCE_Edit_Type");
  const code = header.indexOf("ICD_Code");
  const codeType = header.indexOf("ICD_Code_Type");
  if (type < 0 || code < 0)
    throw refusal("E_BAD_REQUEST_400", ["the first line must name the MCE_Edit_Type and ICD_Code columns"]);
  const merged = new Map<string, EditInput>();
  let skipped = 0;
  for (const line of lines.slice(1)) {
    const cells = line.split("\t");
    const edit = MCE_EDITS[cells[type] ?? ""];
    const icd = cells[code] ?? "";
    if (edit === undefined || (codeType >= 0 && cells[codeType] !== "D")) {
      skipped++;
      continue;
    }
    merged.set(icd, { ...(merged.get(icd) ?? { code: icd }), ...edit });
  }
  return { edits: [...merged.values()], skipped };
}

export async function importDiagnosisEdits(
  db: Db,
  actor: TenantActor,
  edits: readonly EditInput[],
  options: { mode: "merge" | "replace"; skipped: number },
) {
  const problems = edits.flatMap((edit, index) =>
    isCodeToken(edit.code) ? [] : [`[${index}] ${edit.code} is not a diagnosis code`],
  );
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
  const normalized = edits.map((edit) => ({ ...edit, code: normalizeIcd10(edit.code) }));
  await db.transaction(async (tx) => {
    if (options.mode === "replace") await diagnosisEditRepo.clear(tx, actor.tenantId);
    await diagnosisEditRepo.upsertMany(tx, actor.tenantId, normalized);
    await announceChange(tx, actor.tenantId);
    await recordAudit(tx, actor, {
      action: "diagnosis-edits.import",
      entityType: "diagnosis-edits",
      entityKey: "icd10",
      details: { imported: normalized.length, skipped: options.skipped, mode: options.mode },
    });
  });
  return { imported: normalized.length, skipped: options.skipped };
}
