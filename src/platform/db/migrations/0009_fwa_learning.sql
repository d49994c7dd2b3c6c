-- Learning from investigators' outcomes. No claim is kept: only the features the analysis derived for each
-- provider of a batch (kept as long as the batch's results, since outcomes name a batch's providers), the
-- outcomes with the features they had, and each tenant's model.
CREATE TABLE fwa_provider_features (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  batch_id uuid NOT NULL,
  provider_id text NOT NULL,
  -- the analysis's per-provider features, in the engine's PROVIDER_FEATURES order
  features jsonb NOT NULL,
  available_until timestamptz NOT NULL,
  PRIMARY KEY (batch_id, provider_id)
);
CREATE INDEX fwa_provider_features_tenant_idx ON fwa_provider_features (tenant_id, batch_id);
CREATE INDEX fwa_provider_features_expiry_idx ON fwa_provider_features (available_until);

-- one outcome per tenant, batch and provider: a later word on the same one replaces the earlier
CREATE TABLE fwa_outcomes (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  batch_id uuid NOT NULL,
  provider_id text NOT NULL,
  features jsonb NOT NULL,
  fraud boolean NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  request_id text,
  PRIMARY KEY (tenant_id, batch_id, provider_id)
);

CREATE TABLE fwa_models (
  tenant_id integer PRIMARY KEY REFERENCES tenants (id),
  -- training: outcomes arrived after the last fit; ready: a model stands; none: too few outcomes to fit
  status text NOT NULL CHECK (status IN ('none', 'training', 'ready')),
  model jsonb,
  validation jsonb,
  examples integer NOT NULL DEFAULT 0,
  positives integer NOT NULL DEFAULT 0,
  trained_at timestamptz,
  -- when outcomes last arrived, and the newest outcome the current fit has seen
  requested_at timestamptz NOT NULL DEFAULT now(),
  fitted_through timestamptz,
  message text
);
