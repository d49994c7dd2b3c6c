-- A member's version, one more with every adjudication that takes the member's row (a create, an engine
-- re-run). A create reads the member's requests and decides without holding the row, then writes only if
-- the version is still the one it read, or else decides again holding the row: the embedded database's
-- one session is held by a transaction, which then never waits for the application between its reads
-- and its writes.
ALTER TABLE members ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- the guard of such a write: fails the transaction (serialization_failure) when the member moved on
CREATE FUNCTION take_member_version(member_pk integer, read_version bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET version = version + 1 WHERE id = member_pk AND version = read_version;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'member % was adjudicated since version % was read', member_pk, read_version
      USING ERRCODE = 'serialization_failure';
  END IF;
END
$$;
