-- The batch screening's flag threshold per tenant: an item whose combined FWA score reaches it is flagged.
ALTER TABLE tenant_settings
  ADD COLUMN fwa_flag_threshold numeric(4, 3) NOT NULL DEFAULT 0.5
    CHECK (fwa_flag_threshold > 0 AND fwa_flag_threshold <= 1);
