-- The reviewer console. Reviewer users may sign in: a password (only its scrypt hash is kept), an active
-- flag, and the count of failed sign-ins that locks the user out for a while.
ALTER TABLE users ADD COLUMN password_hash text;
ALTER TABLE users ADD COLUMN active boolean NOT NULL DEFAULT true;
ALTER TABLE users ADD COLUMN failed_sign_ins integer NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN locked_until timestamptz;

-- A signed-in reviewer's session: the cookie carries a random token, only its SHA-256 is kept. Owned by the
-- console module.
CREATE TABLE console_sessions (
  token_hash text PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants (id),
  user_id integer NOT NULL REFERENCES users (id),
  -- every form of the session carries it: a write without it is refused
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_user_idx ON console_sessions (user_id);
CREATE INDEX console_sessions_expiry_idx ON console_sessions (expires_at);
