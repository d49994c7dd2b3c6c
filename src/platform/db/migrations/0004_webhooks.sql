-- Webhook registrations and the delivery records of the event platform.

-- json keeps the payload's text as written (jsonb reorders keys), so every retry of a delivery sends the
-- same bytes, in the spec's field order
ALTER TABLE events ALTER COLUMN data TYPE json USING data::json;
-- the order events were stored in: deliveries of one subject to one target keep it
ALTER TABLE events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
-- what the event is about (a prior authorization, a batch, a bulk job): events of one subject reach each
-- target in order; NULL: no ordering with other events
ALTER TABLE events ADD COLUMN subject text;
-- retention purges by age across tenants
CREATE INDEX events_created_idx ON events (created_at);

CREATE TABLE webhooks (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  webhook_url text NOT NULL,
  hook_type text NOT NULL CHECK (
    hook_type IN ('CLAIM', 'PRE_AUTH', 'BOTH', 'POLICY', 'PRE_AUTH_RESULT', 'COMMUNICATION', 'REOPENED', 'REFERRED')
  ),
  -- kept as given: it is the HMAC key of every signature, and the spec returns it
  secret_token text,
  is_active boolean NOT NULL DEFAULT true,
  deactivated_at timestamptz,
  -- removed (DELETE by the tenant) or gone (the receiver answered 410)
  deactivated_reason text CHECK (deactivated_reason IN ('removed', 'gone')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_tenant_idx ON webhooks (tenant_id, id);
CREATE INDEX webhooks_active_hook_idx ON webhooks (tenant_id, hook_type) WHERE is_active;

-- One row per (event, target): what a pg-boss job delivers. A target is a webhook; the claims
-- subscriptions of the batch service join as a second kind of target.
CREATE TABLE event_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  event_id uuid NOT NULL REFERENCES events (id),
  event_seq bigint NOT NULL,
  subject text,
  webhook_id integer NOT NULL REFERENCES webhooks (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  first_attempt_at timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_deliveries_webhook_idx ON event_deliveries (webhook_id, id);
CREATE INDEX event_deliveries_event_idx ON event_deliveries (event_id);
CREATE INDEX event_deliveries_settled_idx ON event_deliveries (created_at) WHERE status <> 'pending';
-- the ordering check: an earlier delivery of the same subject to the same target still pending
CREATE INDEX event_deliveries_pending_subject_idx ON event_deliveries (webhook_id, subject, event_seq)
  WHERE status = 'pending';

-- Every attempt of a delivery, as the receiver answered it.
CREATE TABLE event_delivery_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES event_deliveries (id),
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  -- when the next attempt is due; NULL when this one settled the delivery
  next_attempt_at timestamptz
);
CREATE INDEX event_delivery_attempts_delivery_idx ON event_delivery_attempts (delivery_id, attempt);
