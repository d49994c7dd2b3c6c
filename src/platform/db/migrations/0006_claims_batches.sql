-- The batch claims service: signing keys of OAuth access tokens, claims subscriptions, batches and their
-- results (by page, compressed).

-- HMAC keys of the access tokens, shared by every node through the database; the newest signs
CREATE TABLE token_signing_keys (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  secret bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE claims_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id integer NOT NULL REFERENCES tenants (id),
  webhook_url text NOT NULL,
  events text[] NOT NULL,
  -- the HMAC key of every delivery's signature (docs/operator-contract.md section 7)
  secret text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  deactivated_reason text CHECK (deactivated_reason IN ('removed', 'gone')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claims_subscriptions_tenant_idx ON claims_subscriptions (tenant_id) WHERE status = 'active';

-- A delivery goes to a webhook or to a claims subscription
ALTER TABLE event_deliveries ALTER COLUMN webhook_id DROP NOT NULL;
ALTER TABLE event_deliveries ADD COLUMN subscription_id uuid REFERENCES claims_subscriptions (id);
ALTER TABLE event_deliveries ADD CONSTRAINT event_deliveries_one_target
  CHECK ((webhook_id IS NULL) <> (subscription_id IS NULL));
CREATE INDEX event_deliveries_subscription_idx ON event_deliveries (subscription_id, id);
CREATE INDEX event_deliveries_pending_subscription_idx ON event_deliveries (subscription_id, subject, event_seq)
  WHERE status = 'pending' AND subscription_id IS NOT NULL;

CREATE TABLE claims_batches (
  id uuid PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  batch_reference_id text NOT NULL,
  description text,
  start_date date,
  end_date date,
  status text NOT NULL CHECK (status IN ('queued', 'validating', 'processing', 'completed', 'failed')),
  -- false for a batch refused at validation: its reference may be used again
  accepted boolean NOT NULL,
  total_claims integer NOT NULL DEFAULT 0,
  total_items integer NOT NULL DEFAULT 0,
  processed_claims integer NOT NULL DEFAULT 0,
  -- 0-100, as the last batch.processing_update said
  progress integer NOT NULL DEFAULT 0,
  failed_claims integer NOT NULL DEFAULT 0,
  summary json,
  error text,
  error_code text,
  -- the validation errors of a refused batch (the first ones, and how many there were in all)
  validation_errors json,
  -- the spool file of the accepted claims, relative to the data directory
  spool_path text,
  request_id text,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  processing_started_at timestamptz,
  processed_at timestamptz,
  results_available_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  -- the attempt whose pages are the results (attempts that overlap write their own pages)
  results_attempt integer
);
CREATE UNIQUE INDEX claims_batches_reference_key ON claims_batches (tenant_id, batch_reference_id) WHERE accepted;
CREATE INDEX claims_batches_tenant_idx ON claims_batches (tenant_id, submitted_at);
CREATE INDEX claims_batches_purge_idx ON claims_batches (results_available_until)
  WHERE results_available_until IS NOT NULL;

-- The results of a batch, a page of claims per row, gzip-compressed JSON: `all` holds every claim in
-- submission order; `approved`, `flagged` and `rejected` the claims of that status, so a filtered page
-- reads one or two rows whatever the batch's size.
CREATE TABLE claims_batch_results (
  batch_id uuid NOT NULL REFERENCES claims_batches (id),
  attempt integer NOT NULL,
  view text NOT NULL CHECK (view IN ('all', 'approved', 'flagged', 'rejected')),
  page integer NOT NULL,
  claims integer NOT NULL,
  items integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (batch_id, attempt, view, page)
);
