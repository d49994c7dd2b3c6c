import type { Queryable } from "../../platform/db/db.js";
import { likeContains, selectPage, updateTenantRow } from "../../platform/db/sql.js";

export interface NetworkRow {
  id: number;
  name: string;
  is_vip: boolean;
  created_at: Date;
  updated_at: Date;
}

export type NetworkSummaryRow = Pick<NetworkRow, "id" | "name" | "is_vip">;

export interface NetworkProviderRow {
  internal_id: number;
  cchi_no: string;
  name: string;
  city: string;
  type: string | null;
}

const COLUMNS = "id, name, is_vip, created_at, updated_at";

export const networkRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    input: { name: string; is_vip: boolean },
  ): Promise<NetworkRow> {
    const rows = await tx.query<NetworkRow>(
      `INSERT INTO networks (tenant_id, name, is_vip) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [tenantId, input.name, input.is_vip],
    );
    return rows[0] as NetworkRow;
  },

  /** undefined when no network of the tenant has that id */
  update(tx: Queryable, tenantId: number, id: number, changes: { name?: string; is_vip?: boolean }) {
    const target = { table: "networks", key: "id", columns: COLUMNS, writable: ["name", "is_vip"] };
    return updateTenantRow<NetworkRow>(tx, target, tenantId, id, changes);
  },

  async findById(db: Queryable, tenantId: number, id: number): Promise<NetworkRow | undefined> {
    const rows = await db.query<NetworkRow>(
      `SELECT ${COLUMNS} FROM networks WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  },

  /** the ids of the named networks that exist, by name (bulk imports resolve their network_codes at once) */
  async findIdsByNames(
    db: Queryable,
    tenantId: number,
    names: readonly string[],
  ): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const rows = await db.query<{ id: number; name: string }>(
      `SELECT id, name FROM networks WHERE tenant_id = $1 AND name = ANY($2::text[])`,
      [tenantId, names],
    );
    return new Map(rows.map((row) => [row.name, row.id]));
  },

  /** network_code of patient-policy links names a network by its name */
  async findByName(db: Queryable, tenantId: number, name: string): Promise<NetworkRow | undefined> {
    const rows = await db.query<NetworkRow>(
      `SELECT ${COLUMNS} FROM networks WHERE tenant_id = $1 AND name = $2`,
      [tenantId, name],
    );
    return rows[0];
  },

  /**
   * A page of the tenant's networks and the count of all matches. Unfiltered, the count is the
   * trigger-kept counter. Filtered, the tenant's rows are taken first (OFFSET 0 keeps the planner from
   * merging the two levels) so the costly ILIKE runs only on that tenant's rows, once.
   */
  findPage(
    db: Queryable,
    tenantId: number,
    filter: { name?: string; is_vip?: boolean; limit: number; skip: number },
  ): Promise<{ total: number; rows: NetworkSummaryRow[] }> {
    const params: unknown[] = [tenantId];
    const tenantRows = ["tenant_id = $1"];
    if (filter.is_vip !== undefined) {
      params.push(filter.is_vip);
      tenantRows.push(`is_vip = $${params.length}`);
    }
    // only the listed columns: parsing timestamps nobody asked for costs a quarter of the query
    let matches = `SELECT id, name, is_vip FROM networks WHERE ${tenantRows.join(" AND ")}`;
    if (filter.name !== undefined && filter.name !== "") {
      params.push(likeContains(filter.name));
      matches = `SELECT id, name, is_vip FROM (${matches} OFFSET 0) AS tenant_rows WHERE name ILIKE $${params.length}`;
    }
    const countFrom =
      params.length === 1 ? "SELECT coalesce(max(n), 0) FROM network_counts WHERE tenant_id = $1" : undefined;
    return selectPage<NetworkSummaryRow>(db, matches, params, {
      orderBy: "id",
      limit: filter.limit,
      skip: filter.skip,
      countFrom,
    });
  },

  /** the tenant's networks by id, at most `limit` */
  listSummaries(db: Queryable, tenantId: number, limit: number): Promise<NetworkSummaryRow[]> {
    return db.query<NetworkSummaryRow>(
      "SELECT id, name, is_vip FROM networks WHERE tenant_id = $1 ORDER BY id LIMIT $2",
      [tenantId, limit],
    );
  },

  async countProviders(db: Queryable, networkId: number): Promise<number> {
    const rows = await db.query<{ n: number }>(
      "SELECT count(*) AS n FROM network_providers WHERE network_id = $1",
      [networkId],
    );
    return rows[0]?.n ?? 0;
  },

  /** false when the provider was already in the network */
  async addProvider(
    tx: Queryable,
    tenantId: number,
    networkId: number,
    providerId: number,
  ): Promise<boolean> {
    const rows = await tx.query(
      `INSERT INTO network_providers (tenant_id, network_id, provider_id) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING provider_id`,
      [tenantId, networkId, providerId],
    );
    return rows.length > 0;
  },

  /** false when the provider was not in the network */
  async removeProvider(
    tx: Queryable,
    tenantId: number,
    networkId: number,
    providerId: number,
  ): Promise<boolean> {
    const rows = await tx.query(
      "DELETE FROM network_providers WHERE tenant_id = $1 AND network_id = $2 AND provider_id = $3 RETURNING provider_id",
      [tenantId, networkId, providerId],
    );
    return rows.length > 0;
  },

  findProviderPage(
    db: Queryable,
    tenantId: number,
    networkId: number,
    page: { limit: number; skip: number },
  ) {
    return selectPage<NetworkProviderRow>(
      db,
      `SELECT p.id AS internal_id, p.cchi_no, p.name, p.city, p.type
       FROM network_providers np JOIN medical_providers p ON p.id = np.provider_id
       WHERE np.tenant_id = $1 AND np.network_id = $2`,
      [tenantId, networkId],
      { orderBy: "cchi_no", ...page },
    );
  },
};
