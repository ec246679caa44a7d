-- Version 3: runs by their start, which runs --since and runs prune (the
-- newest runs by start, ties by id) read.
CREATE INDEX runs_by_start ON runs (started_at, id);
