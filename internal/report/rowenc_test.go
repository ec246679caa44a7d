package report_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// TestJSONL_encoding encodes random case results with the JSONL writer
// and with encoding/json: the rows must be the same bytes, whatever the
// strings (quotes, control characters, <, > and &, invalid UTF-8, U+2028),
// the numbers (tiny, huge, negative zero) and the fields set.
func TestJSONL_encoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		r := randomResult(rng, 0)
		want, err := report.EncodeRowStd(r)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		var got bytes.Buffer
		if err := report.NewJSONL(&got).Case(r); err != nil {
			t.Fatalf("JSONL.Case: %v", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("result %d: rows differ:\n got: %s\nwant: %s", i, got.Bytes(), want)
		}
	}
}

// TestJSONL_encodingRefused checks that what encoding/json refuses is
// still refused: a NaN score is an error, not a row. Each row goes twice
// through one writer, whose memory of a row's text must not keep what it
// refused.
func TestJSONL_encodingRefused(t *testing.T) {
	for _, r := range []trajeval.CaseResult{
		{ID: "nan", Status: trajeval.StatusPass, Score: math.NaN()},
		{ID: "inf", Status: trajeval.StatusPass, Evaluators: []trajeval.Result{{Name: "e", Weight: math.Inf(1)}}},
		{ID: "nan threshold", Status: trajeval.StatusPass, Evaluators: []trajeval.Result{{Name: "e", Threshold: math.NaN()}}},
	} {
		var b bytes.Buffer
		_, want := report.EncodeRowStd(r)
		j := report.NewJSONL(&b)
		for range 2 {
			err := j.Case(r)
			if want == nil || err == nil || err.Error() != want.Error() {
				t.Errorf("%s: error %v, want encoding/json's %v", r.ID, err, want)
			}
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %q on an error", r.ID, b.Bytes())
		}
		w, _ := report.New("json", &b)
		w.Case(r)
		if err := w.Close(report.Summary{}); err == nil || b.Len() != 0 {
			t.Errorf("%s: the json format wrote %q, error %v; want encoding/json's error", r.ID, b.Bytes(), err)
		}
	}
}

var texts = []string{"", "a", "search", `say "hi"`, `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f\x7f", "<b>&amp;</b>",
	"héllo wörld", "emoji 🎉", "\u2028\u2029", "bad \xff\xfe utf8", "cut \xe2\x82", "(missing)", "(absent)",
	`{"a": 1, "b": [1, 2.50, "x"]}`, `"NYC"`, "3", "  [ 1 , 2 ]  ", "null", "true", `{"$regex":"^a"}`, "nothing"}

func randomText(rng *rand.Rand) string {
	s := texts[rng.IntN(len(texts))]
	if rng.IntN(4) == 0 {
		s += texts[rng.IntN(len(texts))]
	}
	return s
}

var floats = []float64{0, 1, -1, 0.5, 1.0 / 3, 100, 1e-7, 1e-6, 9.99e-7, 1e20, 1e21, 1.5e300, -2.5e-10, 123456789.125, 0.1 + 0.2}

func randomFloat(rng *rand.Rand) float64 {
	if rng.IntN(5) == 0 {
		return math.Copysign(0, -1)
	}
	if rng.IntN(3) == 0 {
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(50)-25))
	}
	return floats[rng.IntN(len(floats))]
}

func randomTexts(rng *rand.Rand) []string {
	switch rng.IntN(3) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	out := make([]string, 1+rng.IntN(3))
	for i := range out {
		out[i] = randomText(rng)
	}
	return out
}

func some(rng *rand.Rand) bool { return rng.IntN(2) == 0 }

func randomUsage(rng *rand.Rand) *trajeval.JudgeUsage {
	if some(rng) {
		return nil
	}
	u := &trajeval.JudgeUsage{Calls: rng.IntN(5), Cached: rng.IntN(3), InputTokens: rng.Int64(), OutputTokens: rng.Int64N(1000)}
	if some(rng) {
		c := randomFloat(rng)
		u.CostUSD = &c
	}
	return u
}

func randomDetails(rng *rand.Rand) *trajeval.Details {
	if rng.IntN(4) == 0 {
		return nil
	}
	d := &trajeval.Details{Hits: rng.IntN(10), Expected: rng.IntN(10), Actual: -rng.IntN(3)}
	if some(rng) {
		d.Mode = randomText(rng)
	}
	for range rng.IntN(3) {
		d.Matched = append(d.Matched, trajeval.Pair{Item: rng.IntN(9), Step: rng.IntN(9), Tool: randomText(rng)})
	}
	for range rng.IntN(3) {
		m := trajeval.Missing{Item: rng.IntN(9), Tool: randomText(rng)}
		for range rng.IntN(3) {
			n := trajeval.NearMiss{Step: rng.IntN(9), Tool: randomText(rng), Why: randomText(rng)}
			for range rng.IntN(3) {
				n.Diffs = append(n.Diffs, trajeval.ArgDiff{Path: randomText(rng), Want: randomText(rng), Got: randomText(rng)})
			}
			m.Near = append(m.Near, n)
		}
		d.Missing = append(d.Missing, m)
	}
	if some(rng) {
		d.Extra = []trajeval.Extra{{Step: 3, Tool: randomText(rng)}, {Step: 4, Tool: randomText(rng)}}
	}
	for range rng.IntN(3) {
		d.Checks = append(d.Checks, trajeval.Check{Name: randomText(rng), Status: randomText(rng), Message: randomText(rng)})
	}
	d.Warnings = randomTexts(rng)
	if some(rng) {
		d.Scope = &trajeval.Scope{Agents: randomTexts(rng), IncludeSubagents: some(rng), InScope: randomTexts(rng), Steps: rng.IntN(5), Of: rng.IntN(9)}
	}
	switch rng.IntN(3) {
	case 0:
		d.Notes = map[string]any{}
	case 1:
		d.Notes = map[string]any{randomText(rng): randomText(rng), "n": json.Number("9007199254740993"), "f": randomFloat(rng),
			"list": []any{1, "<a>", nil, true}, "m": map[string]any{"z": 1, "a": []string{"x"}}}
	}
	return d
}

func randomResult(rng *rand.Rand, depth int) trajeval.CaseResult {
	r := trajeval.CaseResult{ID: randomText(rng), Status: trajeval.Status(randomText(rng)), Score: randomFloat(rng), Warnings: randomTexts(rng),
		Partial: some(rng), Judge: randomUsage(rng)}
	if some(rng) {
		r.Suite, r.Error, r.Trace = randomText(rng), randomText(rng), randomText(rng)
	}
	if some(rng) {
		r.TraceIDs = randomTexts(rng)
	}
	if some(rng) {
		r.Attempt = rng.IntN(4)
	}
	if some(rng) {
		r.Shard = randomText(rng)
	}
	if rng.IntN(4) > 0 {
		r.Evaluators = randomEvaluators(rng, depth)
	}
	if some(rng) {
		r.StartedAt = time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).In(time.FixedZone("X", 3600*(rng.IntN(25)-12)))
		r.DurationMS = randomFloat(rng)
	} else if some(rng) {
		r.DurationMS = randomFloat(rng) // hidden by the row's own field
	}
	if rng.IntN(5) == 0 {
		ok := some(rng)
		d := randomFloat(rng)
		n := int64(rng.IntN(100))
		r.Trajectory = &trajeval.Trajectory{ID: randomText(rng), Turns: []trajeval.Turn{{Turn: 1}},
			Steps: []trajeval.Step{{Index: 1, Name: randomText(rng), Args: map[string]any{"q": randomText(rng), "n": json.Number("1.50")},
				Result: randomText(rng), Error: &ok, DurationMS: &d, StartTime: time.Unix(1e9, 5).UTC(), Agent: randomText(rng)}},
			Metrics: trajeval.Metrics{LLMCalls: &n}, Agents: []trajeval.Agent{{Name: randomText(rng)}}, Partial: some(rng)}
	}
	return r
}

func randomEvaluators(rng *rand.Rand, depth int) []trajeval.Result {
	out := []trajeval.Result{}
	for range rng.IntN(4) {
		e := trajeval.Result{Name: randomText(rng), Type: randomText(rng), Score: randomFloat(rng), Status: trajeval.Status(randomText(rng)),
			Threshold: randomFloat(rng), Weight: randomFloat(rng), Required: some(rng), Details: randomDetails(rng), Judge: randomUsage(rng)}
		if some(rng) {
			e.Error, e.Turn = randomText(rng), rng.IntN(3)
		}
		if depth < 2 && rng.IntN(4) == 0 {
			e.Members = randomEvaluators(rng, depth+1)
		}
		out = append(out, e)
	}
	return out
}

// BenchmarkJSONL encodes the rows of the report goldens' results, by hand
// (JSONL.Case) and with encoding/json (what JSONL did before):
// go test ./internal/report -run XXX -bench JSONL.
func BenchmarkJSONL(b *testing.B) {
	cases, _ := results()
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		w := report.NewJSONL(io.Discard)
		for b.Loop() {
			for _, r := range cases {
				if err := w.Case(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range cases {
				if _, err := report.EncodeRowStd(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// TestJSON_encoding does for the json format's document what
// TestJSONL_encoding does for rows: random results, written by the json
// writer and by encoding/json, are the same bytes.
func TestJSON_encoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		var cases []trajeval.CaseResult
		var s report.Summary
		var got bytes.Buffer
		w, err := report.New("json", &got)
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(4) {
			r := randomResult(rng, 0)
			cases = append(cases, r)
			s.Add(r)
			if err := w.Case(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(s); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if cases == nil {
			cases = []trajeval.CaseResult{}
		}
		want, err := report.EncodeDocStd(s, cases)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("document %d differs:\n got: %s\nwant: %s", i, got.Bytes(), want)
		}
	}
}

// TestJSONL_numbersAndStamps checks the row encoder's short ways against
// encoding/json at their edges: whole numbers written as integers, and
// start times written without a layout.
func TestJSONL_numbersAndStamps(t *testing.T) {
	tests := []struct {
		name   string
		score  float64
		start  time.Time
		reason string
	}{
		{"zero", 0, time.Time{}, "the commonest score"},
		{"negative zero", math.Copysign(0, -1), time.Time{}, "encoding/json writes -0"},
		{"one", 1, time.Time{}, "a pass, a threshold, a weight"},
		{"limit", 1e15, time.Time{}, "the largest whole number written as an integer"},
		{"past the limit", 1e15 + 2, time.Time{}, "formatted as a float again"},
		{"negative limit", -1e15, time.Time{}, "the smallest"},
		{"2^53", 1 << 53, time.Time{}, "beyond the short way"},
		{"1e20", 1e20, time.Time{}, "still %f in encoding/json"},
		{"1e21", 1e21, time.Time{}, "an exponent in encoding/json"},
		{"almost whole", 2.0000000000000004, time.Time{}, "not a whole number"},
		{"a half", 0.5, time.Time{}, "one decimal place"},
		{"negative decimal", -2.25, time.Time{}, "the sign before the digits"},
		{"a duration", 123.456789, time.Time{}, "milliseconds to the nanosecond: six places"},
		{"leading zeros of the fraction", 7.000001, time.Time{}, "zero-padded to six places"},
		{"smallest decimal", 1e-6, time.Time{}, "still %f in encoding/json"},
		{"below the smallest", 9e-7, time.Time{}, "an exponent in encoding/json"},
		{"seven places", 0.1234567, time.Time{}, "past six places: strconv's"},
		{"largest decimal", 999999999.999999, time.Time{}, "fifteen digits"},
		{"past the largest", 1e9 + 0.5, time.Time{}, "strconv's again"},
		{"a third", 1.0 / 3, time.Time{}, "no short decimal: strconv's"},
		{"0.1 + 0.2", 0.1 + 0.2, time.Time{}, "near 0.3, not it: seventeen digits"},
		{"next after 0.3", math.Nextafter(0.3, 1), time.Time{}, "not the float64 nearest 0.3"},
		{"a stamp", 0.5, time.Date(2026, 11, 27, 0, 1, 2, 999_999_999, time.UTC), "milliseconds truncated, not rounded"},
		{"another zone", 0.5, time.Date(2026, 1, 1, 0, 30, 0, 1_000_000, time.FixedZone("X", 3600)), "written in UTC: the day before"},
		{"year 1", 0.5, time.Date(1, 1, 1, 0, 0, 0, 1_000_000, time.UTC), "four digits, zero-padded (the zero time has no stamp)"},
		{"year 9999", 0.5, time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), "the last year of four digits"},
		{"year 10000", 0.5, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "written by Format"},
		{"before year 0", 0.5, time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), "written by Format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := trajeval.CaseResult{ID: "c", Status: trajeval.StatusPass, Score: tt.score, StartedAt: tt.start, DurationMS: tt.score,
				Evaluators: []trajeval.Result{{Name: "e", Score: tt.score, Threshold: tt.score, Weight: tt.score}}}
			want, err := report.EncodeRowStd(r)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := report.NewJSONL(&got).Case(r); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("row differs (%s):\n got: %s\nwant: %s", tt.reason, got.Bytes(), want)
			}
		})
	}
}

// FuzzJSONL_row writes rows made of the fuzzer's text, figure and a
// decimal k/10ᵈ with the JSONL writer and with encoding/json: the bytes
// must be the same, or both must refuse the row. The text covers the
// short way of plain strings (up to 32 bytes, byte by byte against a
// table), the decimal that of numbers of up to six places. Its seed
// corpus is in testdata/fuzz/FuzzJSONL_row.
func FuzzJSONL_row(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, figure float64, k int64, d uint8) {
		decimal := float64(k%1e16) / math.Pow10(int(d%9))
		r := trajeval.CaseResult{ID: text, Suite: text + text, Status: trajeval.StatusPass, Score: figure, StartedAt: time.Unix(1, 0), DurationMS: decimal,
			Evaluators: []trajeval.Result{{Name: text, Type: text[len(text)/2:], Score: decimal, Threshold: -decimal, Weight: figure}}}
		want, wantErr := report.EncodeRowStd(r)
		var got bytes.Buffer
		err := report.NewJSONL(&got).Case(r)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("error %v, encoding/json's %v", err, wantErr)
		}
		if err == nil && !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("rows differ:\n got: %s\nwant: %s", got.Bytes(), want)
		}
	})
}

// TestJSONL_memo writes many rows through one JSONL writer, which
// remembers from row to row the plain strings, the numbers strconv wrote
// and the second of the last stamp: each row must still be what
// encoding/json writes for it alone. The rows draw on small pools, so
// that the memo is hit, and missed by values that share a slot with one
// it holds (strings of the same length and last byte, one plain and one
// not; numbers a bit apart; stamps a second apart, a year past four
// digits).
func TestJSONL_memo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	strs := []string{"check", "chec\"k", "chec\nk", "tool_trajectory", "tool_trajector\x01y", "pass", "fail", "pa<s", "päss",
		"/tmp/lx-4k.jsonl", "/tmp/lx-4k\\jsonl", "bench", "", "a", "\xff", "x" + strings.Repeat("y", 31), strings.Repeat("z", 33),
		"/tmp/trajeval-peers/data-10000-20/traces.jsonl", "/tmp/trajeval-peers/data-10000-20\"traces.jsonl", "/tmp/trajeval-peers/data-10000-20\u2028traces.jsonl"}
	// A string built at run time is equal to a pool's without being the
	// same string: the memo must compare the text, not the pointer.
	fresh := func(s string) string { return string([]byte(s)) }
	pick := func() string {
		s := strs[rng.IntN(len(strs))]
		if some(rng) {
			s = fresh(s)
		}
		return s
	}
	floats := []float64{2.0 / 3, 8.0 / 9, 1.0 / 3, math.Nextafter(2.0/3, 1), math.Nextafter(2.0/3, 0), 0.1 + 0.2, -2.0 / 3,
		1e-7, 1e21, 1.0 / 7, 0.5, 1, 0}
	number := func() float64 {
		if rng.IntN(8) == 0 {
			return randomFloat(rng)
		}
		return floats[rng.IntN(len(floats))]
	}
	base := time.Date(2026, 11, 27, 11, 13, 48, 0, time.UTC)
	stamp := func() time.Time {
		switch rng.IntN(10) {
		case 0:
			return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		case 1:
			return base.Add(time.Duration(rng.IntN(3)) * 24 * time.Hour) // the same second of another day
		case 2:
			return time.Time{}
		}
		return base.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
	}
	rowsSameAsStd(t, 5000, func(int) trajeval.CaseResult {
		r := trajeval.CaseResult{ID: pick(), Suite: pick(), Status: trajeval.Status(pick()), Score: number(),
			StartedAt: stamp(), DurationMS: number(), Trace: pick()}
		for range rng.IntN(4) {
			r.Evaluators = append(r.Evaluators, trajeval.Result{Name: pick(), Type: pick(), Score: number(),
				Status: trajeval.Status(pick()), Threshold: number(), Weight: number(), Required: some(rng)})
		}
		return r
	})
}

// rowsSameAsStd writes n rows, row(0) to row(n-1), through one JSONL
// writer, whose memory is kept from row to row, and fails t unless each
// is encoding/json's.
func rowsSameAsStd(t *testing.T, n int, row func(i int) trajeval.CaseResult) {
	t.Helper()
	var got bytes.Buffer
	w := report.NewJSONL(&got)
	var want []byte
	for i := range n {
		r := row(i)
		std, err := report.EncodeRowStd(r)
		if err != nil {
			t.Fatalf("row %d: encoding/json: %v", i, err)
		}
		want = append(want, std...)
		if err := w.Case(r); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	gotRows, wantRows := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range wantRows {
		if i >= len(gotRows) || !bytes.Equal(gotRows[i], wantRows[i]) {
			t.Fatalf("row %d differs:\n got: %s\nwant: %s", i, gotRows[min(i, len(gotRows)-1)], wantRows[i])
		}
	}
}

// TestJSONL_memoByPlace writes rows whose evaluators, suites, statuses
// and traces are drawn from few values, so that the writer's memory of a
// row's and of each evaluator's text (by its place in the row) is hit
// and missed by one field at a time: encoding/json's rows each time.
func TestJSONL_memoByPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pick := func(ss ...string) string {
		s := ss[rng.IntN(len(ss))]
		if some(rng) {
			s = string([]byte(s)) // equal, not the same string
		}
		return s
	}
	figure := func() float64 { return []float64{0, 1, 0.5, 2.0 / 3, math.Copysign(0, -1)}[rng.IntN(5)] }
	rowsSameAsStd(t, 3000, func(i int) trajeval.CaseResult {
		r := trajeval.CaseResult{ID: strconv.Itoa(i), Suite: pick("bench", "", "benc<"), Status: trajeval.Status(pick("pass", "fail")),
			Score: figure(), Trace: pick("", "/tmp/a.jsonl", "/tmp/b.jsonl", "/tmp/\"b.jsonl")}
		for range 1 + rng.IntN(10) {
			r.Evaluators = append(r.Evaluators, trajeval.Result{Name: pick("check", "chec\nk", "budget"), Type: pick("tool_trajectory", "execution_metrics"),
				Score: figure(), Status: trajeval.Status(pick("pass", "fail", "error")), Threshold: figure(), Weight: figure(), Required: some(rng)})
		}
		return r
	})
}
