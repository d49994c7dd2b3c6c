-- Prior authorization: the request as submitted, the engine's and the reviewer's decisions, the history
-- of transitions, supporting info, communications, the members' loaded history, and tenant settings.

ALTER TABLE prior_authorizations
  ADD COLUMN mode text NOT NULL DEFAULT 'standard' CHECK (mode IN ('standard', 'lightweight')),
  ADD COLUMN authorization_number text NOT NULL DEFAULT '',
  ADD COLUMN transaction_type text NOT NULL DEFAULT 'PREAUTH' CHECK (transaction_type IN ('PREAUTH', 'CLAIM')),
  ADD COLUMN provider_cchi_no text NOT NULL DEFAULT '',
  ADD COLUMN provider_id integer REFERENCES medical_providers (id),
  ADD COLUMN treatment_date timestamptz,
  ADD COLUMN primary_diagnosis text,
  -- the body as submitted (json keeps its text): get-one shows it, reopen and communications re-run it
  ADD COLUMN request json,
  ADD COLUMN note text,
  ADD COLUMN request_alerts json NOT NULL DEFAULT '[]',
  ADD COLUMN reviewer_erp_id text,
  ADD COLUMN approval_remarks text,
  ADD COLUMN referral_remarks text,
  ADD COLUMN internal_referral_notes text,
  ADD COLUMN internal_notes text,
  ADD COLUMN referral_cchi_code text,
  ADD COLUMN referral_valid_days integer,
  ADD COLUMN referred_at timestamptz,
  ADD COLUMN nphies_reopen_reason text,
  ADD COLUMN nphies_reopen_at timestamptz,
  ADD COLUMN reopened_by text,
  ADD COLUMN response_bundle_id text,
  ADD COLUMN response_bundle_status text,
  ADD COLUMN response_bundle_date timestamptz,
  ADD COLUMN engine_runs integer NOT NULL DEFAULT 0,
  ADD COLUMN cancelled_at timestamptz;
CREATE INDEX prior_authorizations_member_date_idx ON prior_authorizations (tenant_id, member_pk, treatment_date);
CREATE INDEX prior_authorizations_mode_created_idx ON prior_authorizations (mode, created_at);

ALTER TABLE prior_authorization_items
  ADD COLUMN item_index integer NOT NULL DEFAULT 0,
  ADD COLUMN service_code text NOT NULL DEFAULT '',
  ADD COLUMN service_type text,
  ADD COLUMN erp_item_id text,
  ADD COLUMN claimed_quantity integer NOT NULL DEFAULT 1,
  ADD COLUMN claimed_amount numeric(14, 2) NOT NULL DEFAULT 0,
  -- the item as submitted
  ADD COLUMN item json,
  ADD COLUMN outcome text NOT NULL DEFAULT 'REJECTED',
  ADD COLUMN approved boolean NOT NULL DEFAULT false,
  ADD COLUMN approved_quantity integer NOT NULL DEFAULT 0,
  ADD COLUMN approved_duration text,
  ADD COLUMN unit_price numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN request_amount numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN price_rejected_amount numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN rejected_amount numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN held_amount numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN net_payable numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN ai_score numeric(5, 4) NOT NULL DEFAULT 0,
  ADD COLUMN ai_alert text,
  ADD COLUMN reasons json NOT NULL DEFAULT '[]',
  -- the reviewer's word on the item, when given: ACCEPTED or REJECTED, with its reasons
  ADD COLUMN reviewer_status text,
  ADD COLUMN reviewer_reasons json;
CREATE INDEX prior_authorization_items_service_idx ON prior_authorization_items (tenant_id, service_code, id)
  WHERE approved;

CREATE TABLE prior_authorization_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  prior_authorization_id integer NOT NULL REFERENCES prior_authorizations (id),
  action text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  actor text NOT NULL,
  request_id text,
  details json NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX prior_authorization_history_request_idx ON prior_authorization_history (prior_authorization_id, id);

-- attached to a prior authorization, or to a claim (a request submitted with transaction_type CLAIM)
CREATE TABLE supporting_info (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  prior_authorization_id integer NOT NULL REFERENCES prior_authorizations (id),
  attached_to text NOT NULL CHECK (attached_to IN ('PREAUTH', 'CLAIM')),
  sequence_number integer,
  type text,
  code text,
  value text,
  file_name text,
  unit text,
  start_date timestamptz,
  end_date timestamptz,
  value_url text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supporting_info_request_idx ON supporting_info (prior_authorization_id, sequence_number, id);

CREATE TABLE communications (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  prior_authorization_id integer NOT NULL REFERENCES prior_authorizations (id),
  user_name text,
  title text,
  content text,
  path text,
  size text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX communications_request_idx ON communications (prior_authorization_id, id);

-- A member's past claims and requests loaded from the insurer's systems (history synchronization), keyed
-- by the member_id as the insurer knows it: history may arrive before the member does.
CREATE TABLE member_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  member_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('CLAIM', 'PREAUTH')),
  reference text NOT NULL,
  service_date timestamptz NOT NULL,
  status text NOT NULL,
  approved boolean NOT NULL,
  provider_cchi_no text,
  diagnosis_codes text[] NOT NULL DEFAULT '{}',
  items json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT member_history_reference_key UNIQUE (tenant_id, kind, reference)
);
CREATE INDEX member_history_member_idx ON member_history (tenant_id, member_id, service_date);

-- the engine's settings per tenant (defaults: docs/architecture.md section 4 and the README)
CREATE TABLE tenant_settings (
  tenant_id integer PRIMARY KEY REFERENCES tenants (id),
  auto_approval_threshold numeric(4, 3) NOT NULL DEFAULT 0.7 CHECK (auto_approval_threshold BETWEEN 0 AND 1),
  follow_up_days integer NOT NULL DEFAULT 14 CHECK (follow_up_days BETWEEN 0 AND 365),
  duplicate_window_days integer NOT NULL DEFAULT 30 CHECK (duplicate_window_days BETWEEN 0 AND 365),
  lightweight_retention_days integer NOT NULL DEFAULT 30 CHECK (lightweight_retention_days BETWEEN 1 AND 3650),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Which primary diagnoses the tenant has seen with which service codes (the anomaly score's rare-pair
-- signal needs only whether a pair was ever seen). Written with ON CONFLICT DO NOTHING: no row is ever
-- locked by a request, so concurrent requests with the same pair never wait for each other.
CREATE TABLE diagnosis_service_pairs (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  diagnosis text NOT NULL,
  service_code text NOT NULL,
  PRIMARY KEY (tenant_id, diagnosis, service_code)
);

-- Diagnosis edits a tenant loads (CMS MCE style): for the codes they name they take precedence over the
-- built-in clinical facts.
CREATE TABLE diagnosis_edits (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  code text NOT NULL,
  sex text CHECK (sex IN ('MALE', 'FEMALE')),
  min_age integer,
  max_age integer,
  maternity boolean NOT NULL DEFAULT false,
  newborn boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, code)
);
