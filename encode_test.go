package trajeval_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestAppendJSON encodes random trajectories by hand and with
// encoding/json: the bytes must be the same, whatever the strings (quotes,
// control characters, <, > and &, invalid UTF-8, U+2028), the numbers
// (exact big ones, tiny and huge figures, negative zero), the nesting of
// arguments and the fields set or left unknown.
func TestAppendJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	prefix := []byte("kept")
	for i := range 3000 {
		tr := randomTrajectory(rng)
		want, err := trajeval.MarshalStd(tr)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		got, err := trajeval.AppendJSON(prefix, tr)
		if err != nil {
			t.Fatalf("AppendJSON: %v", err)
		}
		if !bytes.Equal(got, append(prefix[:len(prefix):len(prefix)], want...)) {
			t.Fatalf("trajectory %d: JSON differs:\n got: %s\nwant: %s", i, got, want)
		}
		if got, _ := tr.MarshalJSON(); !bytes.Equal(got, want) {
			t.Fatalf("trajectory %d: MarshalJSON differs:\n got: %s\nwant: %s", i, got, want)
		}
		for _, s := range tr.Steps {
			got, _ := s.MarshalJSON()
			want, _ := trajeval.MarshalStepStd(s)
			if !bytes.Equal(got, want) {
				t.Fatalf("trajectory %d: step JSON differs:\n got: %s\nwant: %s", i, got, want)
			}
		}
	}
}

// TestAppendJSON_objects writes trajectories whose steps' arguments are
// objects of the sizes AppendJSON finds by the keys of the objects before
// (one member, two, up to eight) and larger: the keys sorted as
// encoding/json sorts them whether the keys repeat, change, or only some
// of them repeat.
func TestAppendJSON_objects(t *testing.T) {
	type obj = map[string]any
	tests := []struct {
		name   string
		args   []obj
		reason string
	}{
		{"one key repeated", []obj{{"id": "a"}, {"id": "b"}, {"id": "c"}}, "found by the key of the object before"},
		{"one key changing", []obj{{"id": 1.0}, {"ok": true}, {"id": 2.0}, {"x": 1.0}, {"y": 1.0}, {"z": 1.0}, {"id": 3.0}}, "more keys than are remembered: the oldest is walked again"},
		{"two keys, one shared", []obj{{"a": 1.0, "b": 2.0}, {"a": 1.0, "c": 2.0}, {"c": 1.0, "b": 2.0}, {"b": 1.0, "a": 2.0}}, "a pair of which one key is found is walked"},
		{"two keys out of order", []obj{{"z": 1.0, "a": 2.0}, {"z": 3.0, "a": 4.0}}, "sorted, found or walked"},
		{"more keys, one differing", []obj{{"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 1.0, "b": 2.0, "d": 3.0}, {"c": 1.0, "b": 2.0, "a": 3.0}}, "an object of the same size with another key is walked"},
		{"more keys, sizes changing", []obj{{"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}, {"a": 1.0, "b": 2.0, "c": 3.0}}, "the size of the remembered object must match"},
		{"nine keys", []obj{{"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0, "f": 6.0, "g": 7.0, "h": 8.0, "i": 9.0}, {"i": 1.0, "h": 2.0, "g": 3.0, "f": 4.0, "e": 5.0, "d": 6.0, "c": 7.0, "b": 8.0, "a": 9.0}}, "beyond what is remembered: walked and sorted each time"},
		{"the empty key", []obj{{"": 1.0}, {"": 2.0, "a": 3.0}, {"": 4.0}, {"a": 5.0, "": 6.0}}, "the empty key is a key like another"},
		{"nested, the same keys", []obj{{"a": obj{"a": obj{"a": 1.0}}}, {"a": obj{"b": 2.0, "a": obj{}}}}, "objects within objects share what is remembered"},
		{"empty and nil", []obj{{}, nil, {"a": obj(nil)}, {"a": obj{}}}, "{} and null, never a remembered key"},
		{"prefix keys", []obj{{"ab": 1.0, "a": 2.0}, {"a": 1.0, "ab": 2.0}, {"abc": 1.0, "ab": 2.0}}, "byte order: a prefix first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &trajeval.Trajectory{ID: "t"}
			for i, a := range tt.args {
				var args any = a
				if a == nil {
					args = obj(nil)
				}
				tr.Steps = append(tr.Steps, trajeval.Step{Index: i, Name: "tool", Args: args, Result: a})
			}
			sameAsStd(t, tr, tt.reason)
		})
	}
}

// TestAppendJSON_strings writes short strings, which AppendJSON copies at
// once when they hold nothing to escape, and strings about the length
// where it stops trying that: the same bytes as encoding/json.
func TestAppendJSON_strings(t *testing.T) {
	tests := []struct {
		name, s, reason string
	}{
		{"plain", "call_0", "copied as it is"},
		{"empty", "", "two quotes"},
		{"less than", "a<b", "escaped as \\u003c"},
		{"greater than", ">", "escaped as \\u003e"},
		{"ampersand", "a&b", "escaped as \\u0026"},
		{"quote", `say "hi"`, "escaped with a backslash"},
		{"backslash", `C:\dir`, "escaped with a backslash"},
		{"newline", "a\nb", "a control character, escaped"},
		{"unit separator", "\x1f", "the last control character"},
		{"delete", "\x7f", "not escaped by encoding/json"},
		{"non-ASCII", "café", "UTF-8 copied as it is"},
		{"invalid UTF-8", "a\xffb", "written as \\ufffd"},
		{"line separator", "a\u2028b", "escaped as \\u2028"},
		{"32 bytes, escaped last", strings.Repeat("a", 31) + "<", "the longest string checked byte by byte"},
		{"33 bytes, escaped last", strings.Repeat("a", 32) + "<", "the general writer's"},
		{"33 bytes, plain", strings.Repeat("a", 33), "the general writer's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &trajeval.Trajectory{ID: tt.s, Steps: []trajeval.Step{{Name: tt.s, Args: map[string]any{tt.s: tt.s}}}}
			sameAsStd(t, tr, tt.reason)
		})
	}
}

// TestAppendDetailsJSON_strings writes details whose strings need escaping
// or not, with <, > and & escaped (as json.Marshal) and left (as an
// Encoder with SetEscapeHTML(false)): encoding/json's bytes either way.
func TestAppendDetailsJSON_strings(t *testing.T) {
	tests := []struct {
		name, s, reason string
	}{
		{"plain", "search_flights", "copied as it is"},
		{"html", "a<b>&c", "escaped only as json.Marshal does"},
		{"quote and backslash", `"\\"`, "escaped either way"},
		{"control", "\t", "escaped either way"},
		{"non-ASCII", "naïve\u2029", "U+2029 escaped either way"},
		{"long html", strings.Repeat("<", 40), "the general writer's"},
		{"empty", "", "no word to look at"},
		{"three bytes", "a&b", "checked byte by byte"},
		{"four bytes, quote last", `abc"`, "one word of the first four and the last four"},
		{"seven bytes, control in the middle", "abc\x01def", "the overlapping halves cover the middle"},
		{"eight bytes, backslash last", `abcdefg\`, "exactly one word"},
		{"nine bytes, quote last", `abcdefgh"`, "the last word overlaps the first"},
		{"sixteen bytes, < in the second word", "abcdefghijk<mnop", "two words"},
		{"32 bytes, > last", strings.Repeat("a", 31) + ">", "the longest short string"},
		{"32 bytes, non-ASCII last", strings.Repeat("a", 30) + "é", "a high bit"},
		{"33 bytes plain", strings.Repeat("b", 33), "the general writer's"},
		{"DEL and tilde", "\x7f~~~", "plain, not control characters"},
		{"space", "    ", "0x20 is the first plain byte"},
		{"0x1f", "   \x1f", "the last control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			detailsSameAsStd(t, &trajeval.Details{Mode: tt.s, Extra: []trajeval.Extra{{Step: 1, Tool: tt.s}}, Checks: []trajeval.Check{{Name: tt.s, Status: tt.s}}}, tt.reason)
		})
	}
}

// TestAppendDetailsJSON_counts writes details whose counts sit at the
// edges of the table of small integers: encoding/json's bytes.
func TestAppendDetailsJSON_counts(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		reason string
	}{
		{"zero", 0, "the first digit"},
		{"nine", 9, "the last single digit"},
		{"ten", 10, "the first pair"},
		{"99", 99, "the last pair"},
		{"100", 100, "strconv's again"},
		{"minus one", -1, "negative: strconv's"},
		{"largest", math.MaxInt, "strconv's"},
		{"smallest", math.MinInt, "no overflow in the test for small ones"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			detailsSameAsStd(t, &trajeval.Details{Hits: tt.n, Expected: tt.n, Actual: tt.n,
				Matched: []trajeval.Pair{{Item: tt.n, Step: tt.n, Tool: "t"}}, Extra: []trajeval.Extra{{Step: tt.n, Tool: "t"}}}, tt.reason)
		})
	}
}

// TestAppendJSON_refused checks that what encoding/json refuses is still
// refused with its error, and nothing is appended.
// sameAsStd fails t, with reason, unless AppendJSON writes tr as
// encoding/json does.
// detailsSameAsStd checks that AppendDetailsJSON appends to what a
// buffer holds the bytes encoding/json writes for d, HTML escaped and not,
// in a buffer that is full and in one with room to spare (where items are
// written a word at a time).
func detailsSameAsStd(t *testing.T, d *trajeval.Details, reason string) {
	t.Helper()
	for _, html := range []bool{true, false} {
		for _, dst := range [][]byte{[]byte("kept"), append(make([]byte, 0, 1<<12), "kept"...)} {
			got, err := trajeval.AppendDetailsJSON(dst, d, html)
			if err != nil {
				t.Fatal(err)
			}
			if want := stdDetails(t, d, html); !bytes.Equal(got, append([]byte("kept"), want...)) {
				t.Errorf("%s (escapeHTML %v, room %d): JSON differs:\n got: %s\nwant: kept%s", reason, html, cap(dst)-len(dst), got, want)
			}
		}
	}
}

// stdDetails is what encoding/json writes for d, HTML escaped or not,
// without its newline, with the characters of jsonv.Escaped escaped.
func stdDetails(t *testing.T, d *trajeval.Details, html bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return jsonv.Escape(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func sameAsStd(t *testing.T, tr *trajeval.Trajectory, reason string) {
	t.Helper()
	want, err := trajeval.MarshalStd(tr)
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	got, err := trajeval.AppendJSON(nil, tr)
	if err != nil {
		t.Fatalf("AppendJSON: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: JSON differs:\n got: %s\nwant: %s", reason, got, want)
	}
}

func TestAppendJSON_refused(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(-1)
	tests := []struct {
		name   string
		tr     trajeval.Trajectory
		reason string
	}{
		{"NaN duration", trajeval.Trajectory{Steps: []trajeval.Step{{DurationMS: &nan}}}, "JSON has no NaN"},
		{"infinite cost", trajeval.Trajectory{Metrics: trajeval.Metrics{CostUSD: &inf}}, "JSON has no infinity"},
		{"NaN argument", trajeval.Trajectory{Steps: []trajeval.Step{{Args: map[string]any{"x": []any{nan}}}}}, "nested figures are checked too"},
		{"bad number", trajeval.Trajectory{Steps: []trajeval.Step{{Result: json.Number("1.")}}}, "json.Number must be a number literal"},
		{"year 10000", trajeval.Trajectory{Steps: []trajeval.Step{{StartTime: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}}, "RFC 3339 years have four digits"},
		{"unencodable value", trajeval.Trajectory{Steps: []trajeval.Step{{Args: map[string]any{"f": func() {}}}}}, "a value of another type goes to encoding/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, want := trajeval.MarshalStd(&tt.tr)
			got, err := trajeval.AppendJSON([]byte("kept"), &tt.tr)
			if want == nil || err == nil {
				t.Fatalf("error %v, encoding/json's %v; want both to fail: %s", err, want, tt.reason)
			}
			// The reference names its own step type; the rest must agree.
			if w := strings.ReplaceAll(want.Error(), "stdStep", "Step"); err.Error() != w {
				t.Errorf("error %q, want %q: %s", err, w, tt.reason)
			}
			if string(got) != "kept" {
				t.Errorf("got %q on an error, want dst unchanged", got)
			}
		})
	}
}

var texts = []string{"", "a", "search", `say "hi"`, `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f\x7f\b\f", "<b>&amp;</b>",
	"héllo wörld", "emoji 🎉", "\u2028\u2029", "bad \xff\xfe utf8", "cut \xe2\x82", `{"a": 1}`, "null", "日本語"}

func randomText(rng *rand.Rand) string {
	s := texts[rng.IntN(len(texts))]
	if rng.IntN(4) == 0 {
		s += texts[rng.IntN(len(texts))]
	}
	return s
}

var floats = []float64{0, 1, -1, 0.5, 1.0 / 3, 100, 1e-7, 1e-6, 9.99e-7, 1e20, 1e21, 1.5e300, -2.5e-10, 123456789.125, 0.1 + 0.2}

func randomFloat(rng *rand.Rand) float64 {
	switch rng.IntN(5) {
	case 0:
		return math.Copysign(0, -1)
	case 1:
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(60)-30))
	}
	return floats[rng.IntN(len(floats))]
}

var numbers = []json.Number{"0", "-0", "1", "-17", "3.14", "1e400", "-1.5E-300", "12345678901234567890123456789", "0.10", "2e+3", ""}

func randomValue(rng *rand.Rand, depth int) any {
	n := 7
	if depth > 3 {
		n = 5
	}
	switch rng.IntN(n) {
	case 0:
		return nil
	case 1:
		return some(rng)
	case 2:
		return randomText(rng)
	case 3:
		return numbers[rng.IntN(len(numbers))]
	case 4:
		return randomFloat(rng)
	case 5:
		if rng.IntN(5) == 0 {
			return []any(nil)
		}
		a := make([]any, rng.IntN(4))
		for i := range a {
			a[i] = randomValue(rng, depth+1)
		}
		return a
	default:
		if rng.IntN(5) == 0 {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for range rng.IntN(20) {
			m[randomText(rng)] = randomValue(rng, depth+1)
		}
		return m
	}
}

func some(rng *rand.Rand) bool { return rng.IntN(2) == 0 }

func maybe[T any](rng *rand.Rand, v T) *T {
	if some(rng) {
		return nil
	}
	return &v
}

func orZero[T any](rng *rand.Rand, v T) T {
	if some(rng) {
		var zero T
		return zero
	}
	return v
}

func randomTime(rng *rand.Rand) time.Time {
	if some(rng) {
		return time.Time{}
	}
	zone := time.FixedZone("", (rng.IntN(25)-12)*3600)
	return time.Unix(rng.Int64N(1<<36)-1<<35, rng.Int64N(1e9)*int64(rng.IntN(2))).In(zone)
}

func randomTrajectory(rng *rand.Rand) *trajeval.Trajectory {
	t := &trajeval.Trajectory{ID: randomText(rng), Partial: some(rng), Line: rng.IntN(9), Trial: rng.IntN(3)}
	if some(rng) {
		t.Turns = make([]trajeval.Turn, rng.IntN(3))
	}
	for i := range t.Turns {
		t.Turns[i] = trajeval.Turn{Turn: i + 1, User: maybe(rng, randomText(rng)), FinalResponse: maybe(rng, randomText(rng))}
	}
	if rng.IntN(5) > 0 {
		t.Steps = make([]trajeval.Step, rng.IntN(5))
	}
	for i := range t.Steps {
		t.Steps[i] = trajeval.Step{
			Index: i + 1, Turn: orZero(rng, rng.IntN(4)), ID: orZero(rng, randomText(rng)), Name: randomText(rng),
			Args: randomValue(rng, 0), Result: randomValue(rng, 0), Error: maybe(rng, some(rng)),
			ErrorMessage: orZero(rng, randomText(rng)), DurationMS: maybe(rng, randomFloat(rng)),
			StartTime: randomTime(rng), EndTime: randomTime(rng), ParallelGroup: orZero(rng, rng.IntN(3)-1),
			Agent: orZero(rng, randomText(rng)),
		}
	}
	t.Metrics = trajeval.Metrics{DurationMS: maybe(rng, randomFloat(rng)), CostUSD: maybe(rng, randomFloat(rng)),
		LLMCalls: maybe(rng, rng.Int64()-rng.Int64())}
	if some(rng) {
		t.Metrics.Tokens = trajeval.Tokens{Input: maybe(rng, rng.Int64()), Output: maybe(rng, -rng.Int64N(9)), Total: maybe(rng, int64(math.MinInt64))}
	}
	switch rng.IntN(3) {
	case 0:
		t.Agents = []trajeval.Agent{}
	case 1:
		for range 1 + rng.IntN(3) {
			t.Agents = append(t.Agents, trajeval.Agent{Name: randomText(rng), Parent: orZero(rng, randomText(rng))})
		}
	}
	return t
}

// benchTrajectory is a trajectory of 20 steps with the arguments and
// results a tool-calling agent gives.
func benchTrajectory() *trajeval.Trajectory {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tr := &trajeval.Trajectory{ID: "case-0042", Turns: []trajeval.Turn{{Turn: 1, User: ptr("Book a flight from NYC to <SFO> & a hotel"), FinalResponse: ptr("Done: flight UA 123, hotel booked.")}}}
	for i := range 20 {
		tr.Steps = append(tr.Steps, trajeval.Step{
			Index: i + 1, Turn: 1, ID: "call_" + strings.Repeat("x", 20), Name: "search_flights",
			Args:   map[string]any{"origin": "NYC", "destination": "SFO", "date": "2025-06-02", "passengers": json.Number("2"), "filters": map[string]any{"max_stops": json.Number("1"), "cabin": "economy"}},
			Result: `{"flights": [{"id": "UA123", "price": 312.5}, {"id": "DL456", "price": 289.0}]}`,
			Error:  ptr(false), DurationMS: ptr(123.456), StartTime: t0.Add(time.Duration(i) * time.Second), EndTime: t0.Add(time.Duration(i)*time.Second + 123456*time.Microsecond),
		})
	}
	tr.Metrics = trajeval.Metrics{DurationMS: ptr(4567.0), CostUSD: ptr(0.0123), Tokens: trajeval.Tokens{Input: ptr[int64](1200), Output: ptr[int64](340), Total: ptr[int64](1540)}, LLMCalls: ptr[int64](4)}
	return tr
}

func BenchmarkMarshalJSON(b *testing.B) {
	tr := benchTrajectory()
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := trajeval.MarshalStd(tr); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarshalJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tr.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = trajeval.AppendJSON(buf[:0], tr); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAppendJSON_smallObjects writes a trajectory of 20 steps whose
// arguments and results are objects of one or two members, the shape of
// most tool calls (and of bench/suitegen's traces).
func BenchmarkAppendJSON_smallObjects(b *testing.B) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &trajeval.Trajectory{ID: "case-0000001"}
	for i := range 20 {
		args := map[string]any{"id": fmt.Sprintf("doc-%d", i)}
		if i%5 == 0 {
			args = map[string]any{"query": "python history", "limit": json.Number("10")}
		}
		tr.Steps = append(tr.Steps, trajeval.Step{
			Index: i, ID: fmt.Sprintf("call_%d", i), Name: "grep", Args: args, Result: map[string]any{"ok": true},
			Error: ptr(false), DurationMS: ptr(61.0), StartTime: t0.Add(time.Duration(i) * 100 * time.Millisecond), EndTime: t0.Add(time.Duration(i)*100*time.Millisecond + 61*time.Millisecond),
		})
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		var err error
		if buf, err = trajeval.AppendJSON(buf[:0], tr); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendDetailsJSON_toolNames writes details of many matched and
// extra items, whose tools are drawn from names that share the slots of
// the encoder's memory of plain names, kept from one details to the next
// (the same length and last byte, one plain and one not, plain only
// without HTML escaping), as the same strings and as equal copies:
// encoding/json's bytes, HTML escaped and not, one details after the
// other.
func TestAppendDetailsJSON_toolNames(t *testing.T) {
	names := []string{"grep", "gre\"p", "gr\np", "gr<p", "g&ep", "gräp"[1:], "search", "sea\\ch", "filter", "fil<er",
		"read_document", "read_documen\x00t", "a", "<", "", strings.Repeat("x", 32), strings.Repeat("x", 33), "\xff\xfe",
		"abc", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh<", "abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijklmnopq", "write_file", "write\x7ffile"}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		d := &trajeval.Details{Mode: "in_order"}
		tool := picker(rng, names)
		for range rng.IntN(6) {
			d.Matched = append(d.Matched, trajeval.Pair{Item: rng.IntN(200), Step: rng.IntN(220) - 10, Tool: tool()})
		}
		for range rng.IntN(30) {
			d.Extra = append(d.Extra, trajeval.Extra{Step: rng.IntN(220) - 10, Tool: tool()})
		}
		detailsSameAsStd(t, d, fmt.Sprintf("details %d", i))
		if t.Failed() {
			return
		}
	}
	// Names of one length that differ only in their last bytes, one plain
	// and one not: the second's slot mostly holds an earlier pair's plain
	// name, of the same first word.
	for i := range 300 {
		tail := make([]byte, 8)
		for k := range tail {
			tail[k] = byte('a' + rng.IntN(26))
		}
		plain := "abcdefgh" + string(tail)
		tail[rng.IntN(8)] = "\"\\\n<"[rng.IntN(4)]
		d := &trajeval.Details{Extra: []trajeval.Extra{{Step: 1, Tool: plain}, {Step: 2, Tool: "abcdefgh" + string(tail)}, {Step: 3, Tool: plain}}}
		detailsSameAsStd(t, d, fmt.Sprintf("pair %d", i))
		if t.Failed() {
			return
		}
	}
}

// TestAppendDetailsJSON_checks writes details of checks whose names,
// statuses and messages are drawn from strings that share the slots of
// the encoder's memory of strings written as they are, kept from one
// details to the next (the same length, first and last bytes; written as
// they are with HTML escaped, without it only, or never), as the same
// strings and as equal copies: encoding/json's bytes, HTML escaped and
// not, one details after the other.
func TestAppendDetailsJSON_checks(t *testing.T) {
	texts := []string{"tool calls ≤ 40", "tool calls < 40", "tool calls \" 40", "tool calls ≥ 40", "pass", "fail", "p<<s", "p\\\\s",
		"got 19", "got\t19", "got 0.01 USD", "got 0.01\u2028USD", "got 0.01\xffUSD", "a", "<", "\"", "ä", "a\x00a", "aaa", "a&a"}
	rng := rand.New(rand.NewPCG(7, 8))
	text := picker(rng, texts)
	for i := range 2000 {
		d := &trajeval.Details{Mode: text()}
		for range rng.IntN(5) {
			d.Checks = append(d.Checks, trajeval.Check{Name: text(), Status: text(), Message: text()})
		}
		detailsSameAsStd(t, d, fmt.Sprintf("details %d", i))
		if t.Failed() {
			return
		}
	}
}

// BenchmarkAppendDetailsJSON writes the details of the bench's rows
// (bench/suitegen: 19 steps, in order against three calls, 16 extra
// steps), as the JSON Lines writer does, without HTML escaped.
func BenchmarkAppendDetailsJSON(b *testing.B) {
	tools := []string{"grep", "grep", "grep", "fetch", "filter", "write_file", "write_file", "filter", "filter", "read_document",
		"write_file", "filter", "fetch", "grep", "grep", "write_file", "filter"}
	d := &trajeval.Details{Mode: "in_order", Hits: 3, Expected: 3, Actual: 19,
		Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 2, Step: 11, Tool: "read_document"}, {Item: 3, Step: 19, Tool: "summarize"}}}
	for i, tool := range tools {
		if i != 9 {
			d.Extra = append(d.Extra, trajeval.Extra{Step: i + 2, Tool: tool})
		}
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		var err error
		if buf, err = trajeval.AppendDetailsJSON(buf[:0], d, false); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendDetailsJSON_argDiffs writes the sides of argument
// differences that are JSON text written as it stands (compact, nothing to
// escape) and those that are not: encoding/json's bytes, HTML escaped and
// not.
func TestAppendDetailsJSON_argDiffs(t *testing.T) {
	tests := []struct {
		name, side string
		reason     string
	}{
		{"string", `"NYC"`, "what jsonv.Marshal writes for a string: as it stands"},
		{"object", `{"id":"doc-10","n":[1,2.5e3,true,null]}`, "compact, sorted: as it stands"},
		{"white space", `{ "id" : "doc-10" }`, "compacted"},
		{"unsorted keys", `{"b":1,"a":2}`, "valid and compact: as it stands, keys in their order"},
		{"repeated key", `{"a":1,"a":2}`, "valid: both kept"},
		{"html", `"<b> & c"`, "escaped with HTML, not without"},
		{"escape", `"\u0041\n"`, "kept escapes"},
		{"line separator", "\"a\u2028b\"", "escaped"},
		{"bidi", "\"a\u202eb\"", "escaped (jsonv.Escaped)"},
		{"invalid UTF-8", "\"a\xffb\"", "not valid JSON: a string"},
		{"not JSON", `NYC`, "a string"},
		{"number", `9007199254740993`, "as it stands"},
		{"bad number", `01`, "not valid JSON: a string"},
		{"trailing data", `"a" "b"`, "not valid JSON: a string"},
		{"deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), "deeper than canonical looks: compacted"},
		{"empty", ``, "not JSON: a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &trajeval.Details{Missing: []trajeval.Missing{{Item: 1, Tool: "search", Near: []trajeval.NearMiss{{Step: 2, Tool: "search",
				Diffs: []trajeval.ArgDiff{{Path: "args.q", Want: tt.side, Got: tt.side}, {Path: "args.r", Want: trajeval.ArgAbsent, Got: tt.side}, {Path: "args.s", Want: tt.side, Got: trajeval.ArgMissing}}}}}}}
			detailsSameAsStd(t, d, tt.reason)
		})
	}
}

// TestDetailsWriter_Append writes details one after the other with one
// DetailsWriter, each list of extra steps made from the last one's (the
// next evaluator of a row, or the next row) with some items changed: a
// tool of the same length and other bytes (in its first or last word, or
// in its middle when longer than 16), the same tool as an equal copy, a
// step moved, items left out or added, the order shuffled, and the
// escaping switched between details: encoding/json's bytes each time.
func TestDetailsWriter_Append(t *testing.T) {
	names := []string{"grep", "grap", "fetch", "fetcx", "filter", "write_file", "write_filf", "xrite_file", "read_document",
		"read_docxment", "summarize", "abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijklmnopqrstuvw", "abcdefghijkXmnopqrstuvw",
		"a", "ab", "abc", "", "gr<p", "g\"ep", "\xff\xfe\xfd\xfc", "tool\u2028x", "x"}
	rng := rand.New(rand.NewPCG(9, 10))
	tool := picker(rng, names)
	var w [2]trajeval.DetailsWriter // HTML escaped and not
	w[0].EscapeHTML = true
	var last []trajeval.Extra
	for i := range 3000 {
		var xs []trajeval.Extra
		for _, x := range last {
			switch rng.IntN(12) {
			case 0: // left out
			case 1:
				xs = append(xs, trajeval.Extra{Step: x.Step, Tool: tool()})
			case 2:
				xs = append(xs, trajeval.Extra{Step: x.Step + 1 - rng.IntN(3), Tool: x.Tool})
			case 3:
				xs = append(xs, x, trajeval.Extra{Step: x.Step + rng.IntN(2), Tool: tool()})
			case 4:
				xs = append(xs, trajeval.Extra{Step: x.Step, Tool: string([]byte(x.Tool))})
			default:
				xs = append(xs, x)
			}
		}
		for len(xs) < 3 || rng.IntN(8) == 0 {
			xs = append(xs, trajeval.Extra{Step: rng.IntN(120), Tool: tool()})
		}
		if rng.IntN(10) == 0 {
			rng.Shuffle(len(xs), func(a, b int) { xs[a], xs[b] = xs[b], xs[a] })
		} else if rng.IntN(2) == 0 {
			slices.SortStableFunc(xs, func(a, b trajeval.Extra) int { return a.Step - b.Step })
		}
		if len(xs) > 40 {
			xs = xs[:40]
		}
		last = xs
		d := &trajeval.Details{Hits: 1, Extra: slices.Clone(xs)}
		// The writers see the lists in turn, one escaping after the
		// other, so each is written after a list of the other escaping
		// too (the pool of AppendDetailsJSON holds one writer).
		html := i%3 == 0
		want := stdDetails(t, d, html)
		wi := 1
		if html {
			wi = 0
		}
		for _, got := range [][]byte{must(w[wi].Append([]byte("kept"), d)), must(trajeval.AppendDetailsJSON([]byte("kept"), d, html))} {
			if !bytes.Equal(got, append([]byte("kept"), want...)) {
				t.Fatalf("details %d (escapeHTML %v): JSON differs:\n got: %s\nwant: kept%s", i, html, got, want)
			}
		}
	}
}

// picker returns a function that picks one of ss at random, half of the
// time as an equal copy, not the same string: a memory of strings must
// compare their text.
func picker(rng *rand.Rand, ss []string) func() string {
	return func() string {
		s := ss[rng.IntN(len(ss))]
		if rng.IntN(2) == 0 {
			s = string([]byte(s))
		}
		return s
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
