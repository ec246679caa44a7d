package jsonv_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\", "\n\t\r\b\f\x00\x1f", "<a&b>", "\u2028\u2029", "bad \xff utf8", "é😀", "cut \xe2\x82", "c1 \u008d, bidi \u202e\u2066"} {
		checkAppendString(t, s)
	}
}

// checkAppendString compares AppendString with encoding/json, HTML
// escaped and not, the characters of jsonv.Escaped escaped in its text
// (encoding/json writes them raw).
func checkAppendString(t *testing.T, s string) {
	t.Helper()
	want, _ := json.Marshal(s)
	want = jsonv.Escape(want)
	if got := jsonv.AppendString(nil, s, true); !bytes.Equal(got, want) {
		t.Fatalf("AppendString(%q, html) = %s, want %s as json.Marshal writes it", s, got, want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	if got := jsonv.AppendString(nil, s, false); !bytes.Equal(got, jsonv.Escape(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))) {
		t.Fatalf("AppendString(%q) = %s, want %s as an Encoder without HTML escaping writes it", s, got, buf.Bytes())
	}
}

// TestAppendString_wordEdges puts each byte AppendString must see at
// every place of strings up to three words long: the eight-byte scan must
// stop at it wherever it falls.
func TestAppendString_wordEdges(t *testing.T) {
	for _, c := range []string{`"`, `\`, "\x00", "\x1f", "<", ">", "&", "\u2028", "é", "\xff", "\xe2\x80", "\x7f", " "} {
		for n := range 25 {
			for at := 0; at <= n; at++ {
				checkAppendString(t, strings.Repeat("a", at)+c+strings.Repeat("b", n-at))
			}
		}
	}
}

// FuzzAppendString checks AppendString against encoding/json on any
// string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"plain text past a word", "q\"b\\<a&b>\u2028", "bad \xff utf8 é😀", "\x00\x1f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(checkAppendString)
}

func BenchmarkAppendString(b *testing.B) {
	texts := []string{"2026-01-01T00:00:00.066Z", "search", strings.Repeat("The agent reads the document and writes a summary. ", 4)}
	var buf []byte
	for b.Loop() {
		for _, s := range texts {
			buf = jsonv.AppendString(buf[:0], s, false)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -2.5, 1e-7, 1e-6, 1e20, 1e21, 123456789.125, 5e-324, math.MaxFloat64} {
		want, _ := json.Marshal(f)
		if got, ok := jsonv.AppendFloat([]byte("x"), f); !ok || !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("AppendFloat(%v) = %s %v, want x%s as json.Marshal writes it", f, got, ok, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, ok := jsonv.AppendFloat([]byte("x"), f); ok || string(got) != "x" {
			t.Errorf("AppendFloat(%v) = %s %v, want x unchanged and false: JSON has no such number", f, got, ok)
		}
	}
}

// TestAppendInt compares AppendInt with strconv around its table (0 to
// 99), at the ends of int64 and below zero.
func TestAppendInt(t *testing.T) {
	var ns []int64
	for n := int64(-12); n <= 1012; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, math.MaxInt64, math.MinInt64, math.MinInt64+1, 1<<32, -(1 << 32))
	for _, n := range ns {
		if got, want := string(jsonv.AppendInt([]byte("x"), n)), "x"+strconv.FormatInt(n, 10); got != want {
			t.Errorf("AppendInt(%d) = %q, want %q", n, got, want)
		}
	}
}
