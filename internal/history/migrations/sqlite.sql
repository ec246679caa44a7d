-- The schema of a new SQLite history, made at the newest version at once:
-- what the migrations in sqlite/ make of an empty file, table for table,
-- column for column, index for index (TestOpen_newSchema checks it). Each
-- ALTER TABLE of the migrations has SQLite parse the whole schema again,
-- so that running them all on a new file cost about as much as
-- recording 250 failing cases. A migration that changes a table changes
-- this file too. Times are milliseconds since 1970-01-01 UTC.
CREATE TABLE runs (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	suites       TEXT NOT NULL,  -- JSON array of the suites' names
	paths        TEXT NOT NULL,  -- JSON array of the paths eval was given
	git_commit   TEXT,           -- null when not known
	git_branch   TEXT,
	started_at   BIGINT NOT NULL,
	ended_at     BIGINT,         -- null: running, or killed
	status       TEXT NOT NULL,  -- running, done or interrupted
	options      TEXT NOT NULL,  -- JSON of the run's options
	cases        INTEGER NOT NULL DEFAULT 0,
	passed       INTEGER NOT NULL DEFAULT 0,
	failed       INTEGER NOT NULL DEFAULT 0,
	errors       INTEGER NOT NULL DEFAULT 0,
	host         TEXT,           -- the host and process that record it (version 2)
	pid          INTEGER,
	heartbeat_at BIGINT,         -- when it last wrote
	run_key      TEXT,           -- a sharded run's key, and its count of shards (version 4)
	shards       INTEGER
);
CREATE INDEX runs_by_start ON runs (started_at, id);
CREATE UNIQUE INDEX runs_by_key ON runs (run_key);
CREATE TABLE run_shards (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	shard       INTEGER NOT NULL,  -- from 1 to the run's shards
	status      TEXT NOT NULL,     -- running, done or interrupted
	ended_at    BIGINT,
	PRIMARY KEY (run_id, shard)
);
CREATE TABLE chunks (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	id          INTEGER NOT NULL,  -- its place among the run's chunks, from 1; a shard's interleaved like its cases
	data        BLOB NOT NULL,    -- S2 of the values, one after another
	PRIMARY KEY (run_id, id)
);
CREATE TABLE evaluators (
	run_id      BIGINT NOT NULL,
	case_seq    INTEGER NOT NULL,
	seq         INTEGER NOT NULL,
	name        TEXT NOT NULL,
	type        TEXT NOT NULL,
	status      TEXT NOT NULL,
	score       DOUBLE PRECISION NOT NULL,
	threshold   DOUBLE PRECISION NOT NULL,
	weight      DOUBLE PRECISION NOT NULL,
	required    INTEGER NOT NULL,
	error       TEXT,
	turn        INTEGER NOT NULL,
	details     TEXT,
	members     TEXT,
	judge       TEXT,
	PRIMARY KEY (run_id, case_seq, seq)
);
CREATE TABLE cases (
	pos         INTEGER PRIMARY KEY,  -- run_id * 4294967296 + seq
	run_id      INTEGER GENERATED ALWAYS AS (pos >> 32) VIRTUAL,
	seq         INTEGER GENERATED ALWAYS AS (pos & 4294967295) VIRTUAL,
	suite       TEXT NOT NULL,
	case_id     TEXT NOT NULL,
	attempt     INTEGER NOT NULL,
	status      TEXT NOT NULL,
	score       DOUBLE PRECISION NOT NULL,
	error       TEXT,
	partial     INTEGER NOT NULL,
	warnings    TEXT,
	judge       TEXT,
	trace       TEXT,
	started_at  BIGINT,
	duration_ms DOUBLE PRECISION NOT NULL,
	trajectory  BLOB,
	evals       BLOB,
	details     BLOB
);
CREATE INDEX cases_by_id ON cases (case_id);
CREATE TABLE packs (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	id          INTEGER NOT NULL,  -- its place among the run's packs, from 1; a shard's interleaved like its chunks
	data        BLOB NOT NULL,    -- S2 of the cases' rows, one after another
	PRIMARY KEY (run_id, id)
);
