-- Version 5: a case's evaluators' results are on its row, packed in evals
-- (package history, pack.go), and their details, when kept, in details:
-- a JSON array, compressed. The rows of evaluators are those of cases recorded
-- before version 5, whose evals is null. Trajectories written from version
-- 5 on are S2 (after the byte S), those before gzip: the first bytes tell which.
ALTER TABLE cases ADD COLUMN evals BLOB;
ALTER TABLE cases ADD COLUMN details BLOB;
