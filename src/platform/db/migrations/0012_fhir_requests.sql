-- The NPHIES FHIR interface owns what it keeps of a request that came as a message: prior authorization
-- knows nothing of FHIR. One row per prior authorization received as a priorauth-request or claim-request:
-- what its response bundles need (the message's ids, parties, the resources a response references) and
-- how many responses were sent, so a later one is numbered and marked a reissue.
CREATE TABLE fhir_requests (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  -- deleted with the request (a lightweight request past its retention)
  prior_authorization_id integer PRIMARY KEY REFERENCES prior_authorizations (id) ON DELETE CASCADE,
  transaction_id text NOT NULL,
  -- json, not jsonb: kept and read whole, never queried inside
  origin json NOT NULL,
  -- responses sent (the first is the answer to the request itself) and, of them, complete (not pended) ones
  responses_sent integer NOT NULL DEFAULT 1,
  complete_sent integer NOT NULL DEFAULT 0,
  -- the decision the last complete response carried (a hash): a re-run that decides the same sends nothing
  sent_decision text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO fhir_requests (tenant_id, prior_authorization_id, transaction_id, origin, responses_sent, complete_sent)
SELECT tenant_id, id, transaction_id, fhir, engine_runs, CASE WHEN status = 'PENDING' THEN 0 ELSE 1 END
FROM prior_authorizations WHERE fhir IS NOT NULL;

ALTER TABLE prior_authorizations DROP COLUMN fhir;

-- a payer finds the member a message names by its member id, or by the patient's national id or passport
CREATE INDEX members_national_id_idx ON members (tenant_id, national_id);
CREATE INDEX members_passport_idx ON members (tenant_id, passport);

-- Attachments received in NPHIES communications (the bytes, base64-decoded), served back to reviewers.
CREATE TABLE fhir_attachments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  prior_authorization_id integer NOT NULL REFERENCES prior_authorizations (id) ON DELETE CASCADE,
  content_type text,
  title text,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fhir_attachments_request_idx ON fhir_attachments (prior_authorization_id);
CREATE UNIQUE INDEX fhir_requests_transaction_idx ON fhir_requests (tenant_id, transaction_id);
