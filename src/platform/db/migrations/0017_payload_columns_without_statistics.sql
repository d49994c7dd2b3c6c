-- The JSON and byte payloads are stored and read whole, never filtered, joined, grouped or sorted on, so
-- the planner has no use for their statistics, and gathering them was most of an ANALYZE's time: on the
-- embedded database, where every request waits for an ANALYZE, 20-80 ms of the audit log's and 30-110 ms
-- of the requests' at 7,000 rows, 6-15 ms without. ANALYZE skips a column whose target is 0.
ALTER TABLE audit_log ALTER COLUMN details SET STATISTICS 0;
ALTER TABLE claims_batch_results ALTER COLUMN data SET STATISTICS 0;
ALTER TABLE claims_batch_spool_parts ALTER COLUMN data SET STATISTICS 0;
ALTER TABLE claims_batches ALTER COLUMN summary SET STATISTICS 0;
ALTER TABLE claims_batches ALTER COLUMN validation_errors SET STATISTICS 0;
ALTER TABLE events ALTER COLUMN data SET STATISTICS 0;
ALTER TABLE fhir_attachments ALTER COLUMN data SET STATISTICS 0;
ALTER TABLE fhir_requests ALTER COLUMN origin SET STATISTICS 0;
ALTER TABLE fwa_models ALTER COLUMN model SET STATISTICS 0;
ALTER TABLE fwa_models ALTER COLUMN validation SET STATISTICS 0;
ALTER TABLE fwa_outcomes ALTER COLUMN features SET STATISTICS 0;
ALTER TABLE fwa_provider_features ALTER COLUMN features SET STATISTICS 0;
ALTER TABLE information_requests ALTER COLUMN erp_item_ids SET STATISTICS 0;
ALTER TABLE member_history ALTER COLUMN items SET STATISTICS 0;
ALTER TABLE policy_bulk_job_chunks ALTER COLUMN patients SET STATISTICS 0;
ALTER TABLE prior_authorization_history ALTER COLUMN details SET STATISTICS 0;
ALTER TABLE prior_authorization_items ALTER COLUMN item SET STATISTICS 0;
ALTER TABLE prior_authorization_items ALTER COLUMN reasons SET STATISTICS 0;
ALTER TABLE prior_authorization_items ALTER COLUMN reviewer_reasons SET STATISTICS 0;
ALTER TABLE prior_authorizations ALTER COLUMN request SET STATISTICS 0;
ALTER TABLE prior_authorizations ALTER COLUMN request_alerts SET STATISTICS 0;
ALTER TABLE token_signing_keys ALTER COLUMN secret SET STATISTICS 0;
