-- Version 2: what tells a run under way from one that was killed: the
-- host and process that record it, and when it last wrote (its
-- heartbeat, milliseconds since 1970-01-01 UTC). Null for runs recorded
-- before version 2.
ALTER TABLE runs ADD COLUMN host TEXT;
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN heartbeat_at BIGINT;
