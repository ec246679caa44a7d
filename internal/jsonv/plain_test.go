package jsonv_test

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// refPlainEnd is plainEnd a byte at a time, as plainly as possible.
func refPlainEnd(d []byte, i int) (end int, wide bool) {
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		wide = wide || c >= 0x80
	}
	return i, wide
}

// checkPlainEnd compares PlainEnd (the vector scan where there is one) and
// the word-at-a-time scan with the reference, from every start in d.
func checkPlainEnd(t *testing.T, d []byte, reason string) {
	t.Helper()
	for i := 0; i <= len(d); i++ {
		end, wide := refPlainEnd(d, i)
		if e, w := jsonv.PlainEnd(d, i); e != end || w != wide {
			t.Fatalf("PlainEnd(%q, %d) = %d, %v; want %d, %v (%s)", d, i, e, w, end, wide, reason)
		}
		if e, w := jsonv.PlainEndSWAR(d, i); e != end || w != wide {
			t.Fatalf("plainEndSWAR(%q, %d) = %d, %v; want %d, %v (%s)", d, i, e, w, end, wide, reason)
		}
	}
}

// TestPlainEnd puts each byte that stops a string, or makes it wide, at
// every place of texts of every length up to 80 bytes (past the 8-, 16-,
// 32- and 64-byte blocks a scan may read at once), and starts the scan at
// every place before and after it: the stop found, and whether a wide
// byte came before it, are the byte-at-a-time reference's.
func TestPlainEnd(t *testing.T) {
	tests := []struct {
		name   string
		b      byte
		reason string
	}{
		{"quote", '"', "ends a string"},
		{"backslash", '\\', "starts an escape"},
		{"nul", 0x00, "the lowest control character"},
		{"newline", '\n', "a control character"},
		{"last control", 0x1f, "the highest control character"},
		{"space", ' ', "the lowest plain byte: no stop"},
		{"delete", 0x7f, "the highest ASCII byte: no stop, not wide"},
		{"high", 0x80, "the lowest wide byte"},
		{"top", 0xff, "the highest wide byte"},
		{"after quote", '#', "the byte after the quote: no stop"},
		{"before backslash", '[', "the byte before the backslash: no stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := range 81 {
				for at := range n {
					d := make([]byte, n)
					for j := range d {
						d[j] = 'a'
					}
					d[at] = tt.b
					checkPlainEnd(t, d, tt.reason)
					// A wide byte before the stop, and one after it.
					if at > 0 {
						d[at-1] = 0xc3
						checkPlainEnd(t, d, tt.reason+", a wide byte before it")
						d[at-1] = 'a'
					}
					if at+1 < n {
						d[at+1] = 0xe9
						checkPlainEnd(t, d, tt.reason+", a wide byte after it")
					}
				}
			}
		})
	}
}

// TestPlainEnd_cut scans slices cut from a larger buffer whose bytes past
// the cut would stop the scan: a scan that read past the slice's length
// would stop there, or see them as wide.
func TestPlainEnd_cut(t *testing.T) {
	for _, past := range []byte{'"', 0x01, 0xff} {
		buf := make([]byte, 200)
		for n := range 81 {
			for j := range buf {
				buf[j] = past
			}
			for j := range n {
				buf[j] = 'x'
			}
			d := buf[:n]
			checkPlainEnd(t, d, "bytes past the slice must not count")
			if end, wide := jsonv.PlainEnd(d, 0); end != n || wide {
				t.Fatalf("PlainEnd of %d plain bytes before %#x = %d, %v; want %d, false", n, past, end, wide, n)
			}
		}
	}
}

// FuzzPlainEnd checks PlainEnd and the word-at-a-time scan against the
// byte-at-a-time reference on any bytes, from any start.
func FuzzPlainEnd(f *testing.F) {
	for _, s := range []string{"", "abc\"", "0123456789abcdef\\x", "é\"", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\x01", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\"ab"} {
		f.Add([]byte(s), 0)
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, d []byte, i int) {
		if i < 0 || i > len(d) {
			i = len(d) / 2
		}
		end, wide := refPlainEnd(d, i)
		if e, w := jsonv.PlainEnd(d, i); e != end || w != wide {
			t.Fatalf("PlainEnd(%q, %d) = %d, %v; want %d, %v", d, i, e, w, end, wide)
		}
		if e, w := jsonv.PlainEndSWAR(d, i); e != end || w != wide {
			t.Fatalf("plainEndSWAR(%q, %d) = %d, %v; want %d, %v", d, i, e, w, end, wide)
		}
	})
}

// BenchmarkPlainEnd scans every string of a bench record (short names,
// ids and times) and then the same strings four times longer (prose-like
// text), with PlainEnd and with the word-at-a-time scan.
func BenchmarkPlainEnd(b *testing.B) {
	data := record(20)
	long := bytes.ReplaceAll(data, []byte(`":"`), []byte(`":"The agent reads the document and writes `))
	for _, in := range []struct {
		name string
		data []byte
	}{{"record", data}, {"long", long}} {
		for _, f := range []struct {
			name string
			scan func([]byte, int) (int, bool)
		}{{"PlainEnd", jsonv.PlainEnd}, {"SWAR", jsonv.PlainEndSWAR}} {
			b.Run(in.name+"/"+f.name, func(b *testing.B) {
				// the strings' starts: after each quote that opens one
				var starts []int
				for i := 0; i < len(in.data); {
					j := bytes.IndexByte(in.data[i:], '"')
					if j < 0 {
						break
					}
					end, _ := f.scan(in.data, i+j+1)
					for end < len(in.data) && in.data[end] == '\\' {
						end, _ = f.scan(in.data, end+2)
					}
					starts = append(starts, i+j+1)
					i = end + 1
				}
				b.SetBytes(int64(len(in.data)))
				for b.Loop() {
					for _, s := range starts {
						f.scan(in.data, s)
					}
				}
			})
		}
	}
}

// TestStops puts every byte at every place of a word, and every byte
// after it, among plain letters: the lowest byte stops marks is the first
// that stops plain ASCII text (a quote, a backslash, a control character,
// a byte of 0x80 or more), whatever follows it. The quote and the control
// characters are found by one comparison (see stops), whose neighbours
// ('!', ' ', '#') must not stop it, and a borrow from a byte that stops
// must never mark one below it.
func TestStops(t *testing.T) {
	stop := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	for i := range 7 {
		for b := range 256 {
			for c := range 256 {
				w := bytes.Repeat([]byte{'a'}, 8)
				w[i], w[i+1] = byte(b), byte(c)
				want := 8
				for j, x := range w {
					if stop(x) {
						want = j
						break
					}
				}
				x := binary.LittleEndian.Uint64(w)
				got := 8
				if m := jsonv.Stops(x); m != 0 {
					got = bits.TrailingZeros64(m) / 8
				}
				if got != want {
					t.Fatalf("stops(%q): first stop at %d, want %d", w, got, want)
				}
			}
		}
	}
}
