-- Version 6: the trajectories, and the evaluators' details, that the cases
-- of one written batch keep are compressed together, a chunk for each
-- kind: they share most of their bytes, so a chunk is a third of the
-- size of its values compressed one by one, and quicker to make. A
-- case's trajectory and details columns then hold a reference into a
-- chunk of its run (package history, chunk.go); those of cases recorded
-- before version 6 hold the value itself, compressed, and read back as
-- before.
CREATE TABLE chunks (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	id          INTEGER NOT NULL,  -- its place among the run's chunks, from 1; a shard's interleaved like its cases
	data        BLOB NOT NULL,    -- S2 of the values, one after another
	PRIMARY KEY (run_id, id)
);
