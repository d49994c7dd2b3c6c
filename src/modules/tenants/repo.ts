import type { TenantMode } from "../../config.js";
import type { Queryable } from "../../platform/db/db.js";
import type { AuthenticatedTenant } from "../../platform/http/tenant-auth.js";

export interface Tenant extends AuthenticatedTenant {
  created_at: Date;
}

export interface ApiKeyOwner {
  key_id: number;
  tenant: Tenant;
}

const TENANT_COLUMNS = "id, name, mode, created_at";

export const tenantRepo = {
  /** undefined when the name is taken */
  async insertIfAbsent(tx: Queryable, name: string, mode: TenantMode): Promise<Tenant | undefined> {
    const rows = await tx.query<Tenant>(
      `INSERT INTO tenants (name, mode) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING ${TENANT_COLUMNS}`,
      [name, mode],
    );
    return rows[0];
  },

  async findByName(db: Queryable, name: string): Promise<Tenant | undefined> {
    const rows = await db.query<Tenant>(`SELECT ${TENANT_COLUMNS} FROM tenants WHERE name = $1`, [name]);
    return rows[0];
  },

  list(db: Queryable): Promise<Tenant[]> {
    return db.query<Tenant>(`SELECT ${TENANT_COLUMNS} FROM tenants ORDER BY name`);
  },

  async updateMode(tx: Queryable, id: number, mode: TenantMode): Promise<void> {
    await tx.query("UPDATE tenants SET mode = $2 WHERE id = $1", [id, mode]);
  },
};

export const credentialRepo = {
  /** sets the tenant's key of that label, replacing (rotating) the previous one */
  async putApiKey(tx: Queryable, tenantId: number, label: string, keyHash: string): Promise<void> {
    await tx.query(
      `INSERT INTO tenant_api_keys (tenant_id, label, key_hash) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, label) DO UPDATE SET key_hash = EXCLUDED.key_hash, created_at = now()`,
      [tenantId, label, keyHash],
    );
  },

  async hasApiKey(db: Queryable, tenantId: number, label: string): Promise<boolean> {
    const rows = await db.query("SELECT 1 FROM tenant_api_keys WHERE tenant_id = $1 AND label = $2", [
      tenantId,
      label,
    ]);
    return rows.length > 0;
  },

  async findApiKeyOwner(db: Queryable, keyHash: string): Promise<ApiKeyOwner | undefined> {
    const rows = await db.query<{ key_id: number } & Tenant>(
      `SELECT k.id AS key_id, t.id, t.name, t.mode, t.created_at
       FROM tenant_api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.key_hash = $1`,
      [keyHash],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    const { key_id, ...tenant } = row;
    return { key_id, tenant };
  },

  async putOauthClient(tx: Queryable, tenantId: number, label: string, clientId: string, secretHash: string) {
    await tx.query(
      `INSERT INTO tenant_oauth_clients (tenant_id, label, client_id, secret_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, label) DO UPDATE
       SET client_id = EXCLUDED.client_id, secret_hash = EXCLUDED.secret_hash, created_at = now()`,
      [tenantId, label, clientId, secretHash],
    );
  },

  /** an OAuth client by its client_id, with its tenant (the token endpoint's lookup) */
  async findOauthClient(
    db: Queryable,
    clientId: string,
  ): Promise<{ secret_hash: string; tenant_id: number; tenant: string } | undefined> {
    const rows = await db.query<{ secret_hash: string; tenant_id: number; tenant: string }>(
      `SELECT c.secret_hash, t.id AS tenant_id, t.name AS tenant FROM tenant_oauth_clients c
       JOIN tenants t ON t.id = c.tenant_id WHERE c.client_id = $1`,
      [clientId],
    );
    return rows[0];
  },

  async hasOauthClient(db: Queryable, tenantId: number, label: string): Promise<boolean> {
    const rows = await db.query("SELECT 1 FROM tenant_oauth_clients WHERE tenant_id = $1 AND label = $2", [
      tenantId,
      label,
    ]);
    return rows.length > 0;
  },
};
