package suite

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// A Shard is one of Count parts of a run (eval --shard Index/Count), so
// that Count machines share a suite's cases; the zero Shard is the whole
// run. The parts are:
//  1. disjoint and together the whole run: each case runs in exactly one
//     shard, with every trial of it;
//  2. stable: a shard is a function of the case keys (SUITE/ID) picked by
//     Filter and Only, the same on every machine whatever the order of the
//     files, so N machines given the same suites and K = 1…N run each case
//     once;
//  3. balanced: the picked cases are ranked by a 64-bit FNV-1a hash of
//     their key (ties by key), and the case of rank r goes to shard
//     r mod Count + 1, so shards differ by one case at most;
//  4. the trajectories of a suite with no cases, known only as they are
//     read, go to shard hash mod Count + 1: balanced on average.
//
// A shard may be empty when Count exceeds the cases: it runs nothing.
type Shard struct {
	Index int // from 1 to Count
	Count int
}

// errShard is the error of a malformed shard.
var errShard = errors.New("a shard is K/N, with 1 ≤ K ≤ N, such as 2/3")

// ParseShard reads "K/N", such as "2/3".
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	ki, err1 := strconv.Atoi(strings.TrimSpace(k))
	ni, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: %w", s, errShard)
	}
	sh := Shard{Index: ki, Count: ni}
	return sh, sh.check()
}

// String is "K/N", or "" for the whole run.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

func (s Shard) check() error {
	if s == (Shard{}) || (s.Count >= 1 && s.Index >= 1 && s.Index <= s.Count) {
		return nil
	}
	return fmt.Errorf("shard %d/%d: %w", s.Index, s.Count, errShard)
}

// shardKey is the key a case or trajectory is sharded by.
func shardKey(suiteName, id string) string { return suiteName + "/" + id }

func shardHash(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// pick returns the test of whether a case or trajectory of the run is in
// s, given the keys of the cases the run picks (rules 2–4).
func (s Shard) pick(keys []string) func(suiteName, id string) bool {
	type ranked struct {
		key  string
		hash uint64
	}
	rs := make([]ranked, len(keys))
	for i, k := range keys {
		rs[i] = ranked{k, shardHash(k)}
	}
	slices.SortFunc(rs, func(a, b ranked) int { return cmp.Or(cmp.Compare(a.hash, b.hash), strings.Compare(a.key, b.key)) })
	listed := make(map[string]bool, len(rs)) // key → in s
	for r, k := range rs {
		listed[k.key] = r%s.Count == s.Index-1
	}
	return func(suiteName, id string) bool {
		key := shardKey(suiteName, id)
		if in, ok := listed[key]; ok {
			return in
		}
		return int(shardHash(key)%uint64(s.Count)) == s.Index-1
	}
}
