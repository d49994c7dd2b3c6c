-- Networks, medical providers, members, policy holders, reviewer users, code sets.
-- Every table carries tenant_id and every uniqueness rule includes it.

CREATE TABLE networks (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  name text NOT NULL,
  is_vip boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT networks_name_key UNIQUE (tenant_id, name)
);
-- find-all pages in id order within a tenant
CREATE INDEX networks_tenant_id_idx ON networks (tenant_id, id);

-- The unfiltered total_count of find-all, kept by trigger: counting every row per page request was half
-- the cost of the most frequent call. Networks are created rarely, so the counter row is no hot spot.
CREATE TABLE network_counts (
  tenant_id integer PRIMARY KEY REFERENCES tenants (id),
  n integer NOT NULL
);
CREATE FUNCTION networks_keep_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO network_counts (tenant_id, n) VALUES (NEW.tenant_id, 1)
      ON CONFLICT (tenant_id) DO UPDATE SET n = network_counts.n + 1;
  ELSE
    UPDATE network_counts SET n = n - 1 WHERE tenant_id = OLD.tenant_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER networks_count AFTER INSERT OR DELETE ON networks
  FOR EACH ROW EXECUTE FUNCTION networks_keep_count();

CREATE TABLE medical_providers (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  cchi_no text NOT NULL,
  name text NOT NULL,
  nphies_id text,
  phone_number text,
  city text NOT NULL,
  type text,
  lng text,
  lat text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT medical_providers_cchi_no_key UNIQUE (tenant_id, cchi_no)
);

CREATE TABLE network_providers (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  network_id integer NOT NULL REFERENCES networks (id),
  provider_id integer NOT NULL REFERENCES medical_providers (id),
  added_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT network_providers_pkey PRIMARY KEY (network_id, provider_id)
);
CREATE INDEX network_providers_provider_idx ON network_providers (provider_id);

CREATE TABLE members (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  member_id text NOT NULL,
  -- nullable: lightweight prior authorization creates members from date of birth and gender alone
  national_id text,
  gender text NOT NULL,
  marital_status text,
  date_of_birth timestamptz NOT NULL,
  name text,
  card text,
  email text,
  relation text,
  passport text,
  visit_visa_number text,
  phone_number text,
  address text,
  nationality text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT members_member_id_key UNIQUE (tenant_id, member_id)
);

CREATE TABLE policy_holders (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  ph_erp_id text NOT NULL,
  name text NOT NULL,
  insurance_type text,
  province text,
  registration_number text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT policy_holders_ph_erp_id_key UNIQUE (tenant_id, ph_erp_id),
  CONSTRAINT policy_holders_name_key UNIQUE (tenant_id, name),
  CONSTRAINT policy_holders_registration_number_key UNIQUE (tenant_id, registration_number)
);

CREATE TABLE users (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  username text NOT NULL,
  name text,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_username_key UNIQUE (tenant_id, username)
);

-- One row per loaded code system: its presence switches ICD-10 lookups from well-formedness to membership.
CREATE TABLE code_sets (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  system text NOT NULL,
  entry_count integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, system)
);

CREATE TABLE code_set_entries (
  tenant_id integer NOT NULL,
  system text NOT NULL,
  code text NOT NULL,
  description text NOT NULL,
  PRIMARY KEY (tenant_id, system, code),
  FOREIGN KEY (tenant_id, system) REFERENCES code_sets (tenant_id, system)
);
