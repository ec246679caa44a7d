package trajeval_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/trajeval/trajeval"
)

func TestArgDiff_JSON(t *testing.T) {
	tests := []struct {
		name   string
		diff   trajeval.ArgDiff
		json   string
		reason string
	}{
		{"numbers", trajeval.ArgDiff{Path: "args.qty", Want: "2", Got: "3"}, `{"path":"args.qty","want":2,"got":3}`, "JSON values, not strings holding JSON"},
		{"strings", trajeval.ArgDiff{Path: "args.city", Want: `"New York"`, Got: `"NYC"`}, `{"path":"args.city","want":"New York","got":"NYC"}`, "a string is a JSON string"},
		{"no HTML escaping", trajeval.ArgDiff{Path: "args.sku", Want: `"A<1>"`, Got: `"B&2"`}, `{"path":"args.sku","want":"A<1>","got":"B&2"}`, "the reports never escape <, > and &"},
		{"pattern", trajeval.ArgDiff{Path: "args.q", Want: `{"$regex":"^a"}`, Got: `"b"`}, `{"path":"args.q","want":{"$regex":"^a"},"got":"b"}`, "an operator is the object it was written as"},
		{"missing", trajeval.ArgDiff{Path: "args.date", Want: `"2024-01-01"`, Got: trajeval.ArgMissing}, `{"path":"args.date","want":"2024-01-01"}`, "a key the call lacks has no got"},
		{"absent", trajeval.ArgDiff{Path: "args.extra", Want: trajeval.ArgAbsent, Got: `[1,2]`}, `{"path":"args.extra","got":[1,2]}`, "a key not expected has no want"},
		{"null", trajeval.ArgDiff{Path: "args.x", Want: "null", Got: `""`}, `{"path":"args.x","want":null,"got":""}`, "null and the empty string are values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false) // as the reports write rows
			err := enc.Encode(tt.diff)
			got := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
			if err != nil || string(got) != tt.json {
				t.Fatalf("Marshal = %s, %v; want %s: %s", got, err, tt.json, tt.reason)
			}
			var back trajeval.ArgDiff
			if err := json.Unmarshal(got, &back); err != nil || back != tt.diff {
				t.Errorf("Unmarshal(%s) = %+v, %v; want %+v: the text report reads the same from a row", got, back, err, tt.diff)
			}
		})
	}
}

// TestArgDiff_UnmarshalJSON_earlierRows checks that rows written before
// want and got were JSON values still read as the text they held.
func TestArgDiff_UnmarshalJSON_earlierRows(t *testing.T) {
	tests := []struct {
		row    string
		want   trajeval.ArgDiff
		reason string
	}{
		{`{"path":"args.sku","want":"\"A<1>\"","got":"\"B&2\""}`, trajeval.ArgDiff{Path: "args.sku", Want: `"A<1>"`, Got: `"B&2"`}, "a string holding a JSON string"},
		{`{"path":"args.q","want":"{\"$regex\":\"^a\"}","got":"[1]"}`, trajeval.ArgDiff{Path: "args.q", Want: `{"$regex":"^a"}`, Got: "[1]"}, "strings holding an object and an array"},
		{`{"path":"args.d","want":"\"x\"","got":"(missing)"}`, trajeval.ArgDiff{Path: "args.d", Want: `"x"`, Got: trajeval.ArgMissing}, "the old text of a missing key"},
		{`{"path":"args.e","want":"(absent)","got":"1"}`, trajeval.ArgDiff{Path: "args.e", Want: trajeval.ArgAbsent, Got: `"1"`}, "an old number reads as a string: the one case that cannot be told apart"},
	}
	for _, tt := range tests {
		var got trajeval.ArgDiff
		if err := json.Unmarshal([]byte(tt.row), &got); err != nil || got != tt.want {
			t.Errorf("Unmarshal(%s) = %+v, %v; want %+v: %s", tt.row, got, err, tt.want, tt.reason)
		}
	}
	var d trajeval.ArgDiff
	if err := json.Unmarshal([]byte(`{"want":1}`), &d); err == nil {
		t.Error("a difference without a path is read")
	}
}
