package jsonv_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\", "\n\t\r\b\f\x00\x1f", "<a&b>", "\u2028\u2029", "bad \xff utf8", "é😀", "cut \xe2\x82"} {
		want, _ := json.Marshal(s)
		if got := jsonv.AppendString(nil, s, true); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q, html) = %s, want %s as json.Marshal writes it", s, got, want)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		if got := jsonv.AppendString(nil, s, false); !bytes.Equal(got, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))) {
			t.Errorf("AppendString(%q) = %s, want %s as an Encoder without HTML escaping writes it", s, got, buf.Bytes())
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
