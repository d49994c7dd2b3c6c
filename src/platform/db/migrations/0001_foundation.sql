-- Tenants and their credentials. Secrets are stored as SHA-256 hashes only.
CREATE TABLE tenants (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9-]{1,63}$'),
  mode text NOT NULL CHECK (mode IN ('standard', 'lightweight')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tenant_api_keys (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  label text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, label)
);

CREATE TABLE tenant_oauth_clients (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  label text NOT NULL,
  client_id text NOT NULL UNIQUE,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, label)
);

-- Append-only record of every write: who, what, when, request id, outcome.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer REFERENCES tenants (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  entity_type text NOT NULL,
  entity_key text NOT NULL,
  request_id text,
  outcome text NOT NULL,
  details jsonb
);
CREATE INDEX audit_log_tenant_at_idx ON audit_log (tenant_id, at);
CREATE INDEX audit_log_entity_idx ON audit_log (tenant_id, entity_type, entity_key);

CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
