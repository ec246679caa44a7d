-- Version 12: an argument or result a reader kept as JSON text is stored
-- in a kept trajectory's encoding (package history, trajcode.go) as that
-- text, as it stands (the tag 8), not as the values it holds; the
-- trajectories written before keep their bytes and read back as before.
-- No table changes: the version tells a trajeval that reads only those
-- that it cannot read this history.
SELECT 1;
