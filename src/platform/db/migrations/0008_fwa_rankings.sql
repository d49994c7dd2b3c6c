-- The provider and member rankings of a batch are kept beside its result pages, a page of 1,000 entities
-- per row ordered by risk_score, written and purged with them (the `claims` column counts the entities)
ALTER TABLE claims_batch_results DROP CONSTRAINT claims_batch_results_view_check;
ALTER TABLE claims_batch_results ADD CONSTRAINT claims_batch_results_view_check
  CHECK (view IN ('all', 'approved', 'flagged', 'rejected', 'providers', 'members'));
