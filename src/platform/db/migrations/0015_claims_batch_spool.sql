-- A batch's spool in the database (MIZAN_BATCH_SPOOL=database, README "Batch claims service"), so any
-- worker analyses a batch without a volume shared with the node that received it. The accepted claims,
-- one JSON line each in submission order, are cut into parts of at most a few MiB of lines, each part
-- gzip-compressed, written as the upload streams in. Owned by the claims-batch module.
CREATE TABLE claims_batch_spool_parts (
  -- no reference to claims_batches: the parts are written before the batch's row exists
  batch_id uuid NOT NULL,
  -- from 1, in submission order
  part integer NOT NULL,
  claims integer NOT NULL,
  -- the part's lines before compression
  bytes integer NOT NULL,
  data bytea NOT NULL,
  -- an upload that never became a batch (its node died mid-way) leaves parts the retention purges by age
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, part)
);

-- where the analysis finds a batch's spool: null, the file spool_path; a number, that many parts above
ALTER TABLE claims_batches ADD COLUMN spool_parts integer;
