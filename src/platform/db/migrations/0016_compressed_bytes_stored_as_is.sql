-- Result pages and spool parts are gzip-compressed before they are stored: PostgreSQL's own compression of
-- large values (pglz) finds nothing to gain and only spends the time trying (a tenth of an insert of a page
-- of 120 kB on the embedded database). EXTERNAL keeps them out of line, as they are.
ALTER TABLE claims_batch_results ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE claims_batch_spool_parts ALTER COLUMN data SET STORAGE EXTERNAL;
