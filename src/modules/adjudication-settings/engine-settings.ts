import type { DiagnosisEdit, EngineSettings } from "../../engine/prior-auth/types.js";
import { TtlCache } from "../../platform/cache.js";
import type { Db, Queryable } from "../../platform/db/db.js";

/**
 * The engine's settings of a tenant and its loaded diagnosis edits, as adjudication reads them: each node
 * remembers them for 10 s, and forgets them as soon as any node announces a change (LISTEN/NOTIFY), so a
 * change applies everywhere at once; the 10 s bound the staleness should a notice be lost.
 */
const SETTINGS = new TtlCache<typeof DEFAULT_SETTINGS>(10_000);
const NO_EDITS = new TtlCache<true>(10_000);

/** the channel a change of a tenant's settings or edits is announced on, its tenant id the payload */
export const ENGINE_SETTINGS_CHANNEL = "mizan_engine_settings";

/** forgets what this node remembers of a tenant's settings and edits */
function forget(tenantId: number): void {
  SETTINGS.delete(String(tenantId));
  NO_EDITS.delete(String(tenantId));
}

/**
 * Announces a change of a tenant's settings or edits, in the change's transaction: every node listening
 * (forgetOnAnnouncement) forgets its memory of them when it commits; this node forgets at once too.
 */
export async function announceChange(tx: Queryable, tenantId: number): Promise<void> {
  forget(tenantId);
  await tx.query("SELECT pg_notify($1, $2)", [ENGINE_SETTINGS_CHANNEL, String(tenantId)]);
}

/** makes this node forget a tenant's settings and edits whenever any node announces a change */
export function forgetOnAnnouncement(db: Db): Promise<() => Promise<void>> {
  return db.listen(ENGINE_SETTINGS_CHANNEL, (payload) => forget(Number(payload)));
}

export const DEFAULT_SETTINGS: EngineSettings & { lightweightRetentionDays: number } = {
  autoApprovalThreshold: 0.7,
  followUpDays: 14,
  duplicateWindowDays: 30,
  lightweightRetentionDays: 30,
};

export const engineSettings = {
  /** the tenant's settings, remembered for 10 s (a change made through this node applies at once) */
  async settings(db: Queryable, tenantId: number): Promise<typeof DEFAULT_SETTINGS> {
    const cached = SETTINGS.get(String(tenantId));
    if (cached !== undefined) return cached;
    const loaded = await engineSettings.loadSettings(db, tenantId);
    SETTINGS.set(String(tenantId), loaded);
    return loaded;
  },

  async loadSettings(db: Queryable, tenantId: number): Promise<typeof DEFAULT_SETTINGS> {
    const rows = await db.query<{
      auto_approval_threshold: string;
      follow_up_days: number;
      duplicate_window_days: number;
      lightweight_retention_days: number;
    }>(
      `SELECT auto_approval_threshold::text, follow_up_days, duplicate_window_days, lightweight_retention_days
       FROM tenant_settings WHERE tenant_id = $1`,
      [tenantId],
    );
    const row = rows[0];
    if (row === undefined) return DEFAULT_SETTINGS;
    return {
      autoApprovalThreshold: Number(row.auto_approval_threshold),
      followUpDays: row.follow_up_days,
      duplicateWindowDays: row.duplicate_window_days,
      lightweightRetentionDays: row.lightweight_retention_days,
    };
  },

  /**
   * The loaded edits of these codes and of their parents down to 3 characters (the engine takes the
   * nearest). A tenant without edits, the usual case, is remembered as such for 10 s.
   */
  async diagnosisEdits(
    db: Queryable,
    tenantId: number,
    codes: readonly string[],
  ): Promise<Map<string, DiagnosisEdit>> {
    if (NO_EDITS.get(String(tenantId)) === true) return new Map();
    const any = await db.query("SELECT 1 FROM diagnosis_edits WHERE tenant_id = $1 LIMIT 1", [tenantId]);
    if (any.length === 0) {
      NO_EDITS.set(String(tenantId), true);
      return new Map();
    }
    const wanted = [
      ...new Set(
        codes.flatMap((code) => Array.from({ length: code.length - 2 }, (_, i) => code.slice(0, i + 3))),
      ),
    ];
    const rows = await db.query<{
      code: string;
      sex: "MALE" | "FEMALE" | null;
      min_age: number | null;
      max_age: number | null;
      maternity: boolean;
      newborn: boolean;
    }>(
      `SELECT code, sex, min_age, max_age, maternity, newborn FROM diagnosis_edits
       WHERE tenant_id = $1 AND code IN (SELECT json_array_elements_text($2::json))`,
      [tenantId, JSON.stringify(wanted)],
    );
    return new Map(
      rows.map((row) => [
        row.code,
        {
          ...(row.sex === null ? {} : { sex: row.sex }),
          ...(row.min_age === null ? {} : { minAge: row.min_age }),
          ...(row.max_age === null ? {} : { maxAge: row.max_age }),
          ...(row.maternity ? { maternity: true } : {}),
          ...(row.newborn ? { newborn: true } : {}),
        },
      ]),
    );
  },
};
