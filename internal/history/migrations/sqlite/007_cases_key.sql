-- Version 7: a case's row is keyed by one integer, its place in the history,
-- pos = its run's id times 2^32 plus its seq; run_id and seq are worked
-- out of it. A row goes into two B-trees, the table and cases_by_id, not
-- three: (run_id, seq) needed an index of its own. The rows of a run are
-- the range of pos from run_id * 2^32 (package history, dialect.ofRun).
-- cases_by_id indexes case_id alone: the rows of a case, their suite
-- checked on the row. The rows of evaluators, written before version 5,
-- keep no foreign key into cases (which no longer has a unique key on
-- (run_id, seq)); deleting a run deletes its evaluators, chunks and cases
-- by name, as before.
CREATE TABLE evaluators_6 (
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
INSERT INTO evaluators_6 SELECT run_id, case_seq, seq, name, type, status, score, threshold, weight, required, error, turn, details, members, judge FROM evaluators;
DROP TABLE evaluators;
ALTER TABLE evaluators_6 RENAME TO evaluators;
CREATE TABLE cases_6 (
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
INSERT INTO cases_6 (pos, suite, case_id, attempt, status, score, error, partial, warnings, judge, trace, started_at, duration_ms, trajectory, evals, details)
	SELECT run_id * 4294967296 + seq, suite, case_id, attempt, status, score, error, partial, warnings, judge, trace, started_at, duration_ms, trajectory, evals, details FROM cases;
DROP TABLE cases;
ALTER TABLE cases_6 RENAME TO cases;
CREATE INDEX cases_by_id ON cases (case_id);
