package drift_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
)

func TestUnknown_Report(t *testing.T) {
	tests := []struct {
		name   string
		saw    [][2]string // what, name
		want   []string
		reason string
	}{
		{"nothing", nil, nil, "a file holding only known kinds gives no warning"},
		{"once per kind", [][2]string{{"record type", "a"}, {"record type", "b"}, {"record type", "a"}},
			[]string{
				`f.jsonl:1: record type "a" is not known to the x reader (2 times, the first here): the file may come from a version of the tool this reader was not checked against`,
				`f.jsonl:2: record type "b" is not known to the x reader (1 time, the first here): the file may come from a version of the tool this reader was not checked against`,
			}, "each kind is one warning with its count, in the order first seen"},
		{"same name, other what", [][2]string{{"record type", "a"}, {"field", "a"}},
			[]string{
				`f.jsonl:1: record type "a" is not known to the x reader (1 time, the first here): the file may come from a version of the tool this reader was not checked against`,
				`f.jsonl:2: field "a" is not known to the x reader (1 time, the first here): the file may come from a version of the tool this reader was not checked against`,
			}, "a field and a record type of one name are two kinds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u drift.Unknown
			for i, s := range tt.saw {
				u.Saw(s[0], s[1], i+1)
			}
			var got []string
			u.Report(trajeval.Input{Name: "f.jsonl", Warn: func(w trajeval.Warning) { got = append(got, w.String()) }}, "x")
			if len(got) != len(tt.want) {
				t.Fatalf("got %d warnings %q, want %q (%s)", len(got), got, tt.want, tt.reason)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("warning %d = %q, want %q (%s)", i, got[i], tt.want[i], tt.reason)
				}
			}
			if u.Len() != 0 {
				t.Errorf("Report left %d kinds; want none, so that a second report is empty", u.Len())
			}
		})
	}
}
