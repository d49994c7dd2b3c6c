-- Policies with their benefit templates and patient links, the asynchronous bulk imports, price lists,
-- health declarations, the event outbox, and the core of prior-authorization storage that utilization
-- (the consumption endpoint) reads.

CREATE TABLE policies (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  policy_holder_id integer NOT NULL REFERENCES policy_holders (id),
  policy_no text NOT NULL,
  start_date date NOT NULL,
  end_date date NOT NULL,
  created_date date NOT NULL,
  status text NOT NULL,
  plan_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT policies_policy_no_key UNIQUE (tenant_id, policy_holder_id, policy_no),
  CONSTRAINT policies_dates_check CHECK (start_date <= end_date)
);

-- The template: category > benefit > sub-benefit, each with its limit.
CREATE TABLE policy_categories (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  policy_id integer NOT NULL REFERENCES policies (id),
  category_code text NOT NULL,
  amount_eligible numeric(14, 2) NOT NULL CHECK (amount_eligible >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT policy_categories_code_key UNIQUE (policy_id, category_code)
);

CREATE TABLE policy_benefits (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  category_id integer NOT NULL REFERENCES policy_categories (id),
  benefit_code integer NOT NULL,
  description text,
  limit_amount numeric(14, 2) NOT NULL CHECK (limit_amount >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT policy_benefits_code_key UNIQUE (category_id, benefit_code)
);

CREATE TABLE policy_sub_benefits (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  benefit_id integer NOT NULL REFERENCES policy_benefits (id),
  sub_benefit_code integer NOT NULL,
  description text,
  limit_amount numeric(14, 2) NOT NULL CHECK (limit_amount >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT policy_sub_benefits_code_key UNIQUE (benefit_id, sub_benefit_code)
);

-- A member's membership of a policy. One link per member and policy; overlapping ACTIVE links of one
-- member on different policies are refused by the service under a lock on the member.
CREATE TABLE patient_policies (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  policy_id integer NOT NULL REFERENCES policies (id),
  member_pk integer NOT NULL REFERENCES members (id),
  category_code text NOT NULL,
  network_id integer REFERENCES networks (id),
  start_date date NOT NULL,
  end_date date NOT NULL,
  status text NOT NULL DEFAULT 'ACTIVE',
  is_vip boolean NOT NULL DEFAULT false,
  insured_notes text,
  additional_date timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT patient_policies_member_key UNIQUE (policy_id, member_pk),
  CONSTRAINT patient_policies_dates_check CHECK (start_date <= end_date)
);
CREATE INDEX patient_policies_member_idx ON patient_policies (member_pk);

-- Asynchronous bulk imports: the job, its pending chunks (deleted as each commits, so a restarted worker
-- resumes at the first chunk left), and the per-patient failures.
CREATE TABLE policy_bulk_jobs (
  id uuid PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  policy_id integer NOT NULL REFERENCES policies (id),
  status text NOT NULL DEFAULT 'queued',
  received integer NOT NULL,
  processed integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  request_id text,
  actor text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX policy_bulk_jobs_tenant_idx ON policy_bulk_jobs (tenant_id, created_at);

CREATE TABLE policy_bulk_job_chunks (
  job_id uuid NOT NULL REFERENCES policy_bulk_jobs (id),
  chunk_no integer NOT NULL,
  first_index integer NOT NULL,
  patients jsonb NOT NULL,
  PRIMARY KEY (job_id, chunk_no)
);

CREATE TABLE policy_bulk_job_errors (
  job_id uuid NOT NULL REFERENCES policy_bulk_jobs (id),
  patient_index integer NOT NULL,
  member_id text NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  PRIMARY KEY (job_id, patient_index)
);

-- Events waiting for delivery (the outbox): written in the transaction of the change that causes them.
CREATE TABLE events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id integer NOT NULL REFERENCES tenants (id),
  hook_type text NOT NULL,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_tenant_idx ON events (tenant_id, created_at);

-- The core of prior-authorization storage that utilization reads; the prior-authorization migration
-- adds the request's other columns.
CREATE TABLE prior_authorizations (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  transaction_id text NOT NULL,
  member_pk integer NOT NULL REFERENCES members (id),
  policy_id integer REFERENCES policies (id),
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT prior_authorizations_transaction_id_key UNIQUE (tenant_id, transaction_id)
);
CREATE INDEX prior_authorizations_member_policy_idx ON prior_authorizations (member_pk, policy_id);

CREATE TABLE prior_authorization_items (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  prior_authorization_id integer NOT NULL REFERENCES prior_authorizations (id),
  benefit_code integer,
  sub_benefit_code integer,
  approved_amount numeric(14, 2) NOT NULL DEFAULT 0,
  exgratia_amount numeric(14, 2) NOT NULL DEFAULT 0
);
CREATE INDEX prior_authorization_items_request_idx ON prior_authorization_items (prior_authorization_id);

-- a price list names its provider by CCHI number or, failing that, by its NPHIES (ERP) code
CREATE INDEX medical_providers_nphies_id_idx ON medical_providers (tenant_id, nphies_id);

CREATE TABLE price_lists (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  price_list_erp_id text NOT NULL,
  provider_id integer NOT NULL REFERENCES medical_providers (id),
  start_date timestamptz NOT NULL,
  end_date timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT price_lists_erp_id_key UNIQUE (tenant_id, price_list_erp_id),
  CONSTRAINT price_lists_dates_check CHECK (start_date <= end_date)
);
CREATE INDEX price_lists_provider_idx ON price_lists (tenant_id, provider_id, start_date);

CREATE TABLE price_items (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  price_list_id integer NOT NULL REFERENCES price_lists (id),
  price_item_erp_id text NOT NULL,
  department text NOT NULL,
  provider_service_code text NOT NULL,
  provider_service_description text NOT NULL,
  provider_service_type text NOT NULL,
  nphies_code text NOT NULL,
  nphies_type text NOT NULL,
  price numeric(14, 2) NOT NULL CHECK (price >= 0),
  date_start timestamptz NOT NULL,
  date_end timestamptz NOT NULL,
  gross numeric(14, 2) CHECK (gross >= 0),
  discount numeric(14, 2) CHECK (discount >= 0),
  nphies_id text,
  length_of_stay text,
  category text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT price_items_erp_id_key UNIQUE (tenant_id, price_item_erp_id),
  CONSTRAINT price_items_dates_check CHECK (date_start <= date_end)
);
CREATE INDEX price_items_service_code_idx ON price_items (price_list_id, provider_service_code);
CREATE INDEX price_items_nphies_code_idx ON price_items (price_list_id, nphies_code);

CREATE TABLE health_declarations (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  member_pk integer NOT NULL REFERENCES members (id),
  policy_holder_id integer NOT NULL REFERENCES policy_holders (id),
  policy_id integer NOT NULL REFERENCES policies (id),
  caption text,
  caption2 text,
  declaration_type text NOT NULL,
  declaration_value text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX health_declarations_member_idx ON health_declarations (tenant_id, member_pk);
