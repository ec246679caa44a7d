-- Version 7 keys SQLite's cases by one integer, so that a row goes into
-- two B-trees, not three. PostgreSQL keeps the key (run_id, seq) and
-- cases_by_id on (suite, case_id): nothing changes here.
SELECT 1;
