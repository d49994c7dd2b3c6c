import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { findCity } from "../../reference/cities.js";
import { type ProviderRow, providerRepo } from "./repo.js";
import type { ProviderCreateInput, ProviderUpdateInput } from "./schemas.js";

/** the stored city is the built-in city's English name, however the client wrote it */
function canonicalCity(name: string): string {
  const city = findCity(name);
  if (city === undefined) throw new AppError("E_CITY_01", `City ${name} not found`);
  return city.nameEn;
}

const cchiInUse = (cchiNo: string) => () =>
  new AppError("E_EMP_02", `CCHI number ${cchiNo} is already in use`);

export function createProvider(db: Db, actor: TenantActor, input: ProviderCreateInput): Promise<ProviderRow> {
  const city = canonicalCity(input.city);
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const provider = await providerRepo.insert(tx, actor.tenantId, {
          cchi_no: input.cchi_no,
          name: input.name,
          nphies_id: input.nphies_id ?? null,
          phone_number: input.phone_number ?? null,
          city,
          type: input.type ?? null,
          lng: input.lng ?? null,
          lat: input.lat ?? null,
        });
        await recordAudit(tx, actor, {
          action: "medical_provider.create",
          entityType: "medical_provider",
          entityKey: provider.cchi_no,
          details: { ...input, city },
        });
        return provider;
      }),
    { medical_providers_cchi_no_key: cchiInUse(input.cchi_no) },
  );
}

export function updateProvider(
  db: Db,
  actor: TenantActor,
  cchiNo: string,
  input: ProviderUpdateInput,
): Promise<ProviderRow> {
  const changes = { ...input, city: input.city === undefined ? undefined : canonicalCity(input.city) };
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const provider = await providerRepo.update(tx, actor.tenantId, cchiNo, changes);
        if (provider === undefined) throw new AppError("E_EMP_01", `Medical provider ${cchiNo} not found`);
        await recordAudit(tx, actor, {
          action: "medical_provider.update",
          entityType: "medical_provider",
          entityKey: cchiNo,
          details: { changes },
        });
        return provider;
      }),
    { medical_providers_cchi_no_key: cchiInUse(input.cchi_no ?? cchiNo) },
  );
}

export async function getProvider(db: Db, tenantId: number, cchiNo: string): Promise<ProviderRow> {
  const provider = await providerRepo.findByCchiNo(db, tenantId, cchiNo);
  if (provider === undefined) throw new AppError("E_EMP_01", `Medical provider ${cchiNo} not found`);
  return provider;
}
