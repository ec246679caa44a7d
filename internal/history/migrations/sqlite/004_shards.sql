-- Version 4: the shards of one run (eval --shard K/N --run-id KEY), which
-- several processes record into one run: the run's key, its count of
-- shards, and a row per shard that began, with its end. Null for runs that
-- were not sharded.
ALTER TABLE runs ADD COLUMN run_key TEXT;
ALTER TABLE runs ADD COLUMN shards INTEGER;
CREATE UNIQUE INDEX runs_by_key ON runs (run_key);
CREATE TABLE run_shards (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	shard       INTEGER NOT NULL,  -- from 1 to the run's shards
	status      TEXT NOT NULL,     -- running, done or interrupted
	ended_at    BIGINT,
	PRIMARY KEY (run_id, shard)
);
