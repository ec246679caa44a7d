-- Version 11: a kept trajectory's encoding (package history, trajcode.go)
-- begins with 'U' and writes a step's times and durations by their
-- differences, not as seconds and nanoseconds and the bits of a float;
-- the trajectories written before (beginning with 'T' or '{') keep their
-- bytes and read back as before. No table changes: the version tells a
-- trajeval that reads only those that it cannot read this history.
SELECT 1;
