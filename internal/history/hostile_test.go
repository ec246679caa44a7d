package history_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// nestedCounts returns prefix, then depth arrays or objects (tag) each
// claiming claim items, then pad zero bytes: every count is one the bytes
// left can hold, so only the nesting can multiply what is allocated.
func nestedCounts(prefix string, tag byte, depth, claim, pad int) []byte {
	b := []byte(prefix)
	for range depth {
		b = append(b, tag)
		b = binary.AppendUvarint(b, uint64(claim))
	}
	return append(b, make([]byte, pad)...)
}

// TestReadTrajectory_nestedCounts: a damaged trajectory whose nested
// arrays or objects each claim as many items as the bytes left hold is an
// error, allocating a few times its own size, not its size for each
// level of nesting (255 levels of 64 KiB claims took 270 MB).
func TestReadTrajectory_nestedCounts(t *testing.T) {
	const step = "T\x00\x00\x01\x02\x00\x00\x00" // an id, no turns, one step: its index, turn, id and name
	tests := []struct {
		name   string
		tag    byte
		claim  int // of 64 KiB, at most: an array's item takes a byte, an object's member two
		reason string
	}{
		{"arrays", 6, 64 << 10, "an array's elements are made as they are read"},
		{"objects", 7, 32 << 10, "an object's members are made as they are read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := nestedCounts(step, tt.tag, 255, tt.claim, 64<<10)
			var err error
			n := allocated(func() { _, err = history.ReadTrajectory(data) })
			if !errors.Is(err, history.ErrTrajectory) {
				t.Errorf("read back, %v; want %v", err, history.ErrTrajectory)
			}
			t.Logf("%d bytes allocated reading %d", n, len(data))
			if limit := 64 * uint64(len(data)); n > limit {
				t.Errorf("%d bytes allocated reading %d, over %d (%s)", n, len(data), limit, tt.reason)
			}
		})
	}
}

// TestReadDetails_nestedCounts: damaged details whose missing items, near
// misses and differences each claim as many as the bytes left hold are an
// error, allocating a few times their own size (it was 150 times).
func TestReadDetails_nestedCounts(t *testing.T) {
	const pad, claim = 64 << 10, 64 << 10
	b := []byte("D\x01\x01\x00\x00\x00\x00\x00") // one evaluator: its mode, hits, expected, actual, no matched pairs
	b = binary.AppendUvarint(b, claim)           // missing items
	b = append(b, 0, 0)                          // the first's item and tool
	b = binary.AppendUvarint(b, claim)           // its near misses
	b = append(b, 0, 0, 0)                       // the first's step, tool and why
	b = binary.AppendUvarint(b, claim)           // its differences
	b = append(b, make([]byte, pad)...)
	var err error
	n := allocated(func() { _, err = history.ReadDetails(b) })
	t.Logf("%d bytes allocated reading %d", n, len(b))
	if !errors.Is(err, history.ErrDetails) {
		t.Errorf("read back, %v; want %v", err, history.ErrDetails)
	}
	if limit := 32 * uint64(len(b)); n > limit {
		t.Errorf("%d bytes allocated reading %d, over %d", n, len(b), limit)
	}
}

// TestReadTrajectory_longNumber: a damaged number of a megabyte is an
// error that quotes its start, not all of it.
func TestReadTrajectory_longNumber(t *testing.T) {
	b := []byte("T\x00\x00\x01\x02\x00\x00\x00\x04") // one step whose arguments are a number
	b = binary.AppendUvarint(b, 1<<20)
	b = append(b, make([]byte, 1<<20)...)
	b = append(b, make([]byte, 16)...) // the rest of the step
	_, err := history.ReadTrajectory(b)
	if !errors.Is(err, history.ErrTrajectory) || len(err.Error()) > 512 {
		t.Errorf("an error of %d bytes, %v; want %v, short", len(fmt.Sprint(err)), errors.Is(err, history.ErrTrajectory), history.ErrTrajectory)
	}
}

// TestDB_Rows_hostileTrajectory: a history file whose stored trajectory
// is hostile (nested arrays each claiming the bytes left, compressed to a
// few kilobytes) reads back as an error naming the file, the run and the
// case, allocating a few times what it decompresses to.
func TestDB_Rows_hostileTrajectory(t *testing.T) {
	dsn := t.TempDir() + "/runs.db"
	h := open(t, dsn)
	id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.Now()}, failing(1))
	raw := rawDB(t, dsn)
	var blob []byte
	if err := raw.QueryRow("SELECT data FROM packs").Scan(&blob); err != nil {
		t.Fatal(err)
	}
	hostile := nestedCounts("T\x00\x00\x01\x02\x00\x00\x00", 6, 255, 256<<10, 256<<10)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(hostile)
	zw.Close()
	damaged, err := history.RewritePack(blob, 0, func(_, details []byte) ([]byte, []byte) { return gz.Bytes(), details })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE packs SET data = $1", damaged); err != nil {
		t.Fatal(err)
	}
	var rerr error
	n := allocated(func() { _, rerr = h.Rows(t.Context(), id, true) })
	t.Logf("%d bytes allocated reading %d (%d compressed)", n, len(hostile), gz.Len())
	if !errors.Is(rerr, history.ErrTrajectory) || !strings.Contains(rerr.Error(), "runs.db: run 1: case ") {
		t.Errorf("error %v, want %v naming the file, run and case", rerr, history.ErrTrajectory)
	}
	if limit := 64 * uint64(len(hostile)); n > limit {
		t.Errorf("%d bytes allocated reading %d, over %d", n, len(hostile), limit)
	}
}

// TestUnsqueeze_claimedLength: an S2 block whose length says more than
// its operations write is refused before that length is allocated (10
// bytes saying a gigabyte took one); blocks S2 writes, with literals,
// copies of every offset size and repeats of every length size, read
// back whole.
func TestUnsqueeze_claimedLength(t *testing.T) {
	for _, claim := range []uint64{1 << 30, 1 << 20, 5, 4} {
		b := binary.AppendUvarint([]byte{'S'}, claim)
		b = append(b, 0, 0, 0, 0) // a literal of one byte, and a cut one
		var err error
		n := allocated(func() { _, err = history.Unsqueeze(b) })
		if err == nil || n > 64<<10 {
			t.Errorf("a block of %d bytes saying %d: %v, %d bytes allocated; want an error, a few allocated", len(b), claim, err, n)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	text := bytes.Repeat([]byte(`{"tool":"search","args":{"q":"history of Python"},"ok":true},`), 2000)
	inputs := [][]byte{nil, {1}, random(70), random(70000), make([]byte, 100), make([]byte, 300), make([]byte, 70000), make([]byte, 20<<20), text,
		slices.Concat(random(100), make([]byte, 1<<17), random(1<<17), make([]byte, 5), random(3), text, random(70000), text)}
	for n := range 300 {
		inputs = append(inputs, random(n), bytes.Repeat([]byte{byte(n)}, n), text[:n*7])
	}
	for i, data := range inputs {
		for _, blob := range [][]byte{history.Squeeze(data), append([]byte{'S'}, s2.EncodeBetter(nil, data)...), append([]byte{'S'}, s2.EncodeBest(nil, data)...)} {
			got, err := history.Unsqueeze(blob)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("input %d (%d bytes): %d bytes back, %v", i, len(data), len(got), err)
			}
		}
	}
}

// FuzzSqueeze: whatever S2 writes, with any of its encoders, unsqueeze
// reads back whole: its check of the length refuses no block S2 writes.
func FuzzSqueeze(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello"), uint8(0))
	f.Add(make([]byte, 1<<17), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		data = bytes.Repeat(data, 1+int(n)%64) // long runs: repeats and far copies
		for _, blob := range [][]byte{history.Squeeze(data), append([]byte{'S'}, s2.EncodeBetter(nil, data)...), append([]byte{'S'}, s2.EncodeBest(nil, data)...)} {
			if got, err := history.Unsqueeze(blob); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes: %d back, %v", len(data), len(got), err)
			}
		}
	})
}

// TestReadTrajectory_tight: encodings whose items take the fewest bytes
// they can (empty steps, arrays of one array, objects of empty keys'
// nulls, empty turns and agents) claim every byte and read back: the
// budget of counts refuses no trajectory the encoder writes.
func TestReadTrajectory_tight(t *testing.T) {
	var nested any = []any{}
	for range 250 {
		nested = []any{nested, nil}
	}
	wide := map[string]any{}
	for i := range 1000 {
		wide[fmt.Sprint(i)] = nil
	}
	tests := []struct {
		name   string
		traj   *trajeval.Trajectory
		reason string
	}{
		{"empty steps", &trajeval.Trajectory{Steps: make([]trajeval.Step, 1000)}, "thirteen bytes a step"},
		{"nested arrays", &trajeval.Trajectory{Steps: []trajeval.Step{{Args: map[string]any{"a": nested}, Result: nested}}}, "each level claims its two items"},
		{"wide object", &trajeval.Trajectory{Steps: []trajeval.Step{{Args: wide, Result: []any{wide, wide}}}}, "a member claims two bytes"},
		{"turns and agents", &trajeval.Trajectory{Turns: make([]trajeval.Turn, 500), Agents: make([]trajeval.Agent, 500)}, "three bytes a turn, two an agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, ok := history.AppendTrajectory(nil, tt.traj)
			if !ok {
				t.Fatal("not encoded")
			}
			if _, err := history.ReadTrajectory(data); err != nil {
				t.Errorf("%v (%s)", err, tt.reason)
			}
		})
	}
}

// TestReadDetails_tight: details whose items take the fewest bytes they
// can read back: the budget of counts refuses no details the encoder
// writes.
func TestReadDetails_tight(t *testing.T) {
	near := make([]trajeval.NearMiss, 50)
	for i := range near {
		near[i].Diffs = make([]trajeval.ArgDiff, 50)
	}
	missing := make([]trajeval.Missing, 50)
	for i := range missing {
		missing[i].Near = near
	}
	d := &trajeval.Details{Matched: make([]trajeval.Pair, 100), Missing: missing, Extra: make([]trajeval.Extra, 100),
		Checks: make([]trajeval.Check, 100), Warnings: make([]string, 100)}
	ds := []*trajeval.Details{d, nil, {}, d}
	data, ok := history.AppendDetailsCode(nil, len(ds), func(i int) *trajeval.Details { return ds[i] })
	if !ok {
		t.Fatal("not encoded")
	}
	if _, err := history.ReadDetails(data); err != nil {
		t.Error(err)
	}
}

// TestDB_Rows_damagedText: a stored trajectory whose kept JSON text is
// damaged (its length beyond the data, or no JSON inside) reads back as
// an error naming the file, the run and the case, never a panic.
func TestDB_Rows_damagedText(t *testing.T) {
	// A trajectory of one step whose arguments are the text (uStep of
	// TestReadTrajectory_damaged up to its arguments), then the rest.
	step := "U\x00\x00\x01\x0c\x00\x00"
	rest := "\x00" + strings.Repeat("\x00", 10)
	tests := []struct {
		name, traj string
		reason     string
	}{
		{"beyond", step + "\x08\x7f{}" + rest, "a length beyond the data"},
		{"cut", step + "\x08\x06{\"a\":1}" + rest, "a length that cuts the object short"},
		{"not JSON inside", step + "\x08\x06{\"a\":}" + rest, "a member with no value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn := t.TempDir() + "/runs.db"
			h := open(t, dsn)
			id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.Now()}, failing(1))
			raw := rawDB(t, dsn)
			var blob []byte
			if err := raw.QueryRow("SELECT data FROM packs").Scan(&blob); err != nil {
				t.Fatal(err)
			}
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write([]byte(tt.traj))
			zw.Close()
			damaged, err := history.RewritePack(blob, 0, func(_, details []byte) ([]byte, []byte) { return gz.Bytes(), details })
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec("UPDATE packs SET data = $1", damaged); err != nil {
				t.Fatal(err)
			}
			_, rerr := h.Rows(t.Context(), id, true)
			if !errors.Is(rerr, history.ErrTrajectory) || !strings.Contains(rerr.Error(), "runs.db: run 1: case ") {
				t.Errorf("error %v, want %v naming the file, run and case", rerr, history.ErrTrajectory)
			}
		})
	}
}
