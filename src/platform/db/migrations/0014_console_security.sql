-- Console sign-in that holds (README "Reviewer console"). Failed sign-ins are counted per tenant, username
-- and source (client address) before any password is checked: five lock that source out of that username
-- for 15 minutes, while the reviewer can still sign in from elsewhere. The tenant and username are the text
-- the form was posted with, so an unknown tenant or user is counted exactly like a known one. Owned by the
-- users module.
CREATE TABLE sign_in_attempts (
  tenant text NOT NULL,
  username text NOT NULL,
  source text NOT NULL,
  -- attempts since the last success (or since the count went stale), including those still being checked
  failures integer NOT NULL,
  locked_until timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, username, source)
);
CREATE INDEX sign_in_attempts_updated_idx ON sign_in_attempts (updated_at);

-- A session lives only while its user's epoch is the one it was started under: a new password or
-- deactivation moves the epoch on, ending every session at once (reactivation does not revive them).
ALTER TABLE users ADD COLUMN session_epoch integer NOT NULL DEFAULT 0;
ALTER TABLE console_sessions ADD COLUMN user_epoch integer NOT NULL DEFAULT 0;

-- users.failed_sign_ins and users.locked_until (0011) are no longer read or written; they stay until no node
-- of an older version can run, then a later migration drops them.
