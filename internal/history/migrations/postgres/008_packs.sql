-- Version 8: the cases of one written batch (up to 1,024) are one row of
-- packs, their rows one after another, compressed as one (package
-- history, casepack.go), rather than a row of cases each: a row of cases
-- went into two B-trees, the table and the index of case ids, and was
-- most of what recording a run cost the database. The cases recorded
-- before keep their rows of cases and read back as before, beside the
-- packs.
CREATE TABLE packs (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	id          INTEGER NOT NULL,  -- its place among the run's packs, from 1; a shard's interleaved like its chunks
	data        BYTEA NOT NULL,    -- S2 of the cases' rows, one after another
	PRIMARY KEY (run_id, id)
);
