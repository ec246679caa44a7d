-- Version 9: a trajectory kept in a chunk is a compact encoding of its
-- fields (package history, trajcode.go), not its canonical JSON; the
-- values written before keep their JSON and read back as before. No
-- table changes: the version tells a trajeval that reads only JSON that
-- it cannot read this history.
SELECT 1;
