-- Version 1: runs, their cases (one row per case and trial) and each
-- case's evaluator results. Times are milliseconds since 1970-01-01 UTC.
CREATE TABLE runs (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	suites      TEXT NOT NULL,  -- JSON array of the suites' names
	paths       TEXT NOT NULL,  -- JSON array of the paths eval was given
	git_commit  TEXT,           -- null when not known
	git_branch  TEXT,
	started_at  BIGINT NOT NULL,
	ended_at    BIGINT,         -- null: running, or killed
	status      TEXT NOT NULL,  -- running, done or interrupted
	options     TEXT NOT NULL,  -- JSON of the run's options
	cases       INTEGER NOT NULL DEFAULT 0,
	passed      INTEGER NOT NULL DEFAULT 0,
	failed      INTEGER NOT NULL DEFAULT 0,
	errors      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE cases (
	run_id      BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,  -- its place in the run's results, from 1
	suite       TEXT NOT NULL,
	case_id     TEXT NOT NULL,
	attempt     INTEGER NOT NULL,  -- 0 when the case ran once
	status      TEXT NOT NULL,
	score       DOUBLE PRECISION NOT NULL,
	error       TEXT,
	partial     INTEGER NOT NULL,
	warnings    TEXT,              -- JSON array
	judge       TEXT,              -- JSON of the judge's usage
	trace       TEXT,
	started_at  BIGINT,
	duration_ms DOUBLE PRECISION NOT NULL,
	trajectory  BLOB,              -- gzip of the canonical trajectory's JSON
	PRIMARY KEY (run_id, seq)
);
CREATE INDEX cases_by_id ON cases (suite, case_id);
CREATE TABLE evaluators (
	run_id      BIGINT NOT NULL,
	case_seq    INTEGER NOT NULL,
	seq         INTEGER NOT NULL,  -- its place among the case's results, from 1
	name        TEXT NOT NULL,
	type        TEXT NOT NULL,
	status      TEXT NOT NULL,
	score       DOUBLE PRECISION NOT NULL,
	threshold   DOUBLE PRECISION NOT NULL,
	weight      DOUBLE PRECISION NOT NULL,
	required    INTEGER NOT NULL,
	error       TEXT,
	turn        INTEGER NOT NULL,
	details     TEXT,              -- JSON
	members     TEXT,              -- JSON array of a composite's members
	judge       TEXT,              -- JSON
	PRIMARY KEY (run_id, case_seq, seq),
	FOREIGN KEY (run_id, case_seq) REFERENCES cases (run_id, seq) ON DELETE CASCADE
);
