-- Version 10: the details of a case's evaluators kept in a chunk are a
-- compact encoding of their fields (package history, detailcode.go),
-- not their JSON array, when it carries them exactly; the values written
-- before keep their JSON and read back as before. No table changes: the
-- version tells a trajeval that reads only JSON that it cannot read this
-- history.
SELECT 1;
