import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { providerRepo } from "../providers/repo.js";
import { announceNetworkChange, findByNameInMemory } from "./names.js";
import { type NetworkProviderRow, type NetworkRow, networkRepo } from "./repo.js";
import type { NetworkCreateInput, NetworkFilter, NetworkUpdateInput } from "./schemas.js";

const nameTaken = (name: string) => () =>
  new AppError("E_CONFLICT_409", `Network name ${name} already exists`);
const networkNotFound = (id: number) => new AppError("E_NOT_FOUND_404", `Network ${id} not found`);

export function createNetwork(db: Db, actor: TenantActor, input: NetworkCreateInput): Promise<NetworkRow> {
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const network = await networkRepo.insert(tx, actor.tenantId, {
          name: input.name,
          is_vip: input.is_vip ?? false,
        });
        await announceNetworkChange(tx, actor.tenantId);
        await recordAudit(tx, actor, {
          action: "network.create",
          entityType: "network",
          entityKey: String(network.id),
          details: { name: network.name, is_vip: network.is_vip },
        });
        return network;
      }),
    { networks_name_key: nameTaken(input.name) },
  );
}

export function updateNetwork(
  db: Db,
  actor: TenantActor,
  id: number,
  input: NetworkUpdateInput,
): Promise<NetworkRow> {
  if (input.name === undefined && input.is_vip === undefined) {
    const message = "at least one of name, is_vip is required";
    throw new AppError("E_BAD_REQUEST_400", message, [message]);
  }
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const before = await networkRepo.findById(tx, actor.tenantId, id);
        if (before === undefined) throw networkNotFound(id);
        const network = (await networkRepo.update(tx, actor.tenantId, id, input)) as NetworkRow;
        await announceNetworkChange(tx, actor.tenantId);
        await recordAudit(tx, actor, {
          action: "network.update",
          entityType: "network",
          entityKey: String(id),
          details: { before: { name: before.name, is_vip: before.is_vip }, after: input },
        });
        return network;
      }),
    { networks_name_key: nameTaken(input.name ?? "") },
  );
}

export async function findNetworks(db: Db, tenantId: number, filter: NetworkFilter) {
  if (filter.name !== undefined && filter.name !== "") {
    const found = await findByNameInMemory(db, tenantId, { ...filter, name: filter.name });
    if (found !== undefined) return found;
  }
  return networkRepo.findPage(db, tenantId, filter);
}

export async function getNetwork(db: Db, tenantId: number, id: number) {
  const network = await networkRepo.findById(db, tenantId, id);
  if (network === undefined) throw networkNotFound(id);
  return { ...network, provider_count: await networkRepo.countProviders(db, id) };
}

/** what adding or removing a provider does, and how it fails when there is nothing to do */
const MEMBERSHIP_CHANGES = {
  add: {
    apply: networkRepo.addProvider,
    refuse: (cchiNo: string, networkId: number) =>
      new AppError("E_CONFLICT_409", `Medical provider ${cchiNo} is already in network ${networkId}`),
  },
  remove: {
    apply: networkRepo.removeProvider,
    refuse: (cchiNo: string, networkId: number) =>
      new AppError("E_EMP_01", `Medical provider ${cchiNo} is not in network ${networkId}`),
  },
};

/** adds a provider to a network or removes it: 404 for an unknown network or provider */
export async function changeNetworkProvider(
  db: Db,
  actor: TenantActor,
  change: keyof typeof MEMBERSHIP_CHANGES,
  networkId: number,
  cchiNo: string,
): Promise<void> {
  if ((await networkRepo.findById(db, actor.tenantId, networkId)) === undefined)
    throw networkNotFound(networkId);
  const provider = await providerRepo.findByCchiNo(db, actor.tenantId, cchiNo);
  if (provider === undefined) throw new AppError("E_EMP_01", `Medical provider ${cchiNo} not found`);
  const { apply, refuse } = MEMBERSHIP_CHANGES[change];
  await db.transaction(async (tx) => {
    if (!(await apply(tx, actor.tenantId, networkId, provider.internal_id))) throw refuse(cchiNo, networkId);
    await recordAudit(tx, actor, {
      action: `network.provider.${change}`,
      entityType: "network",
      entityKey: String(networkId),
      details: { cchi_no: cchiNo },
    });
  });
}

export async function listNetworkProviders(
  db: Db,
  tenantId: number,
  networkId: number,
  page: { limit: number; skip: number },
): Promise<{ total: number; rows: NetworkProviderRow[] }> {
  if ((await networkRepo.findById(db, tenantId, networkId)) === undefined) throw networkNotFound(networkId);
  return networkRepo.findProviderPage(db, tenantId, networkId, page);
}
