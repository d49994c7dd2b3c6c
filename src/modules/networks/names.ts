import { TtlCache } from "../../platform/cache.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { type NetworkSummaryRow, networkRepo } from "./repo.js";

/**
 * Each node's memory of a tenant's networks, for listings filtered by name: matching a name inside every
 * row is the costly part of such a listing in SQL (ILIKE '%…%' reads every row of the tenant), while the
 * list itself changes rarely. A change is announced in its transaction (LISTEN/NOTIFY) and every node
 * forgets the tenant's list; 10 s bound the staleness should a notice be lost. Tenants with more networks
 * than are worth keeping are filtered in SQL as before.
 */
const REMEMBERED = new TtlCache<{ row: NetworkSummaryRow; lower: string }[]>(10_000, 1_000);
const LARGEST_REMEMBERED = 20_000;

export const NETWORKS_CHANNEL = "mizan_networks";

/** in the change's transaction: this node forgets now, the others when it commits */
export async function announceNetworkChange(tx: Queryable, tenantId: number): Promise<void> {
  REMEMBERED.delete(String(tenantId));
  await tx.query("SELECT pg_notify($1, $2)", [NETWORKS_CHANNEL, String(tenantId)]);
}

/** makes this node forget a tenant's networks whenever any node announces a change to them */
export function forgetNetworksOnAnnouncement(db: Db): Promise<() => Promise<void>> {
  return db.listen(NETWORKS_CHANNEL, (tenantId) => REMEMBERED.delete(tenantId));
}

/**
 * The page of the tenant's networks whose name contains `name` (case-insensitively, as ILIKE), by id, and
 * the count of all matches; undefined when the tenant has too many networks to keep in memory.
 */
export async function findByNameInMemory(
  db: Queryable,
  tenantId: number,
  filter: { name: string; is_vip?: boolean | undefined; limit: number; skip: number },
): Promise<{ total: number; rows: NetworkSummaryRow[] } | undefined> {
  let networks = REMEMBERED.get(String(tenantId));
  if (networks === undefined) {
    const rows = await networkRepo.listSummaries(db, tenantId, LARGEST_REMEMBERED + 1);
    if (rows.length > LARGEST_REMEMBERED) return undefined;
    networks = rows.map((row) => ({ row, lower: row.name.toLowerCase() }));
    REMEMBERED.set(String(tenantId), networks);
  }
  const needle = filter.name.toLowerCase();
  const matches = networks.filter(
    (network) =>
      (filter.is_vip === undefined || network.row.is_vip === filter.is_vip) && network.lower.includes(needle),
  );
  return {
    total: matches.length,
    rows: matches.slice(filter.skip, filter.skip + filter.limit).map((network) => network.row),
  };
}
