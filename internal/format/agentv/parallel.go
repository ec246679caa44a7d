package agentv

import "time"

// parallel returns the parallel group of each of the n calls of one
// message, whose start and end times gives, numbering new groups after
// *last. A message's calls were issued in one model response, but AgentV's replay fixtures also record each call's
// start and end: calls whose times do not overlap ran one after the other
// and are not parallel. So:
//  1. one call has no group (the groups are nil);
//  2. when a call lacks a start or an end time, all the message's calls
//     share one group, as calls of one response do;
//  3. otherwise calls form a group with the calls before them whose
//     times overlap theirs (a call starting before the latest end so
//     far); a call overlapping none has no group.
func parallel(n int, times func(i int) (start, end time.Time), last *int) []int {
	if n < 2 {
		return nil
	}
	groups := make([]int, n)
	starts, ends := make([]time.Time, n), make([]time.Time, n)
	timed := true
	for i := range n {
		starts[i], ends[i] = times(i)
		if starts[i].IsZero() || ends[i].IsZero() {
			timed = false
			break
		}
	}
	if !timed {
		*last++
		for i := range groups {
			groups[i] = *last
		}
		return groups
	}
	runStart, runEnd := 0, ends[0]
	close := func(end int) {
		if end-runStart >= 2 {
			*last++
			for i := runStart; i < end; i++ {
				groups[i] = *last
			}
		}
	}
	for i := 1; i < n; i++ {
		if starts[i].Before(runEnd) {
			if ends[i].After(runEnd) {
				runEnd = ends[i]
			}
			continue
		}
		close(i)
		runStart, runEnd = i, ends[i]
	}
	close(n)
	return groups
}
