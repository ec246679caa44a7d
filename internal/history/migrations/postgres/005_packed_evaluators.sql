-- Version 5: a case kept on its row alone (one that passed, by default)
-- holds its evaluators' results packed in evals (see pack.go), and has no
-- rows of evaluators; null for every other case, whose evaluators have
-- their rows as before. Trajectories written from version 5 on are zstd,
-- those before gzip: the first bytes tell which.
ALTER TABLE cases ADD COLUMN evals BYTEA;
