-- The NPHIES FHIR interface. A prior authorization or claim that came as a FHIR message keeps what its
-- response bundles need (the message's ids, parties and the resources a response references).
-- json, not jsonb: kept and read whole, never queried inside
ALTER TABLE prior_authorizations ADD COLUMN fhir json;

-- Every processed request message and the response it was answered with: a message resent with the same
-- MessageHeader id is answered the same again. Owned by the fhir module.
CREATE TABLE fhir_messages (
  tenant_id integer NOT NULL REFERENCES tenants (id),
  message_id text NOT NULL,
  event text NOT NULL,
  -- sha-256 of the message's bytes as received: the same id with other content is refused
  content_hash text NOT NULL,
  transaction_id text,
  -- the response message exactly as it was sent
  response text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, message_id)
);
CREATE INDEX fhir_messages_created_idx ON fhir_messages (created_at);

-- The payer's NPHIES endpoint is a webhook of hook type NPHIES: final response bundles of requests a
-- reviewer decided are delivered, retried and recorded like every other event.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_hook_type_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_hook_type_check CHECK (
  hook_type IN ('CLAIM', 'PRE_AUTH', 'BOTH', 'POLICY', 'PRE_AUTH_RESULT', 'COMMUNICATION', 'REOPENED', 'REFERRED', 'NPHIES')
);
