-- A reviewer's request for information from the provider (NPHIES communication-request). The prior
-- authorization keeps its status while it waits for the answer (a communication, which runs the engine again).
CREATE TABLE information_requests (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  -- deleted with the request (a lightweight request past its retention)
  prior_authorization_id integer NOT NULL REFERENCES prior_authorizations (id) ON DELETE CASCADE,
  -- the reviewer user's username
  reviewer text NOT NULL,
  content text NOT NULL,
  -- the erp_item_ids of the items asked about, as named (json: kept and read whole)
  erp_item_ids json NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX information_requests_request_idx ON information_requests (prior_authorization_id, id);
