package trace_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestDetect_facts compares every format's sniff of a head whose facts
// are read as detection reads them (msglog.Head.Has: the asked keys'
// only, when that is enough) with its sniff of the same head with all its
// facts read first, as detection read them before, and checks that a
// format that disclaims a head (msglog.Disclaimer) would not have claimed
// it, and that Detect chooses the format the sniffs claim for: on every reader's
// fixture, and on heads made of two fixtures' first lines, one after the
// other, so that a line no message-log format claims comes before one
// that some format does.
func TestDetect_facts(t *testing.T) {
	files, err := filepath.Glob("../format/*/testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	var heads, firsts [][]byte
	perFormat := map[string]int{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // a folder
		}
		heads = append(heads, data[:min(len(data), 1<<20)])
		// The first lines of three files a format, so that the pairs
		// stay a few thousand.
		format := filepath.Base(filepath.Dir(path))
		if line, _, _ := bytes.Cut(data, []byte("\n")); len(line) > 0 && len(line) < 8<<10 && perFormat[format] < 3 {
			perFormat[format]++
			firsts = append(firsts, line)
		}
	}
	if len(heads) < 100 {
		t.Fatalf("only %d fixtures", len(heads))
	}
	for _, a := range firsts {
		for _, b := range firsts {
			heads = append(heads, append(append(append([]byte(nil), a...), '\n'), b...))
		}
	}
	for _, head := range heads {
		sameSniffs(t, head)
	}
	t.Logf("%d heads", len(heads))
}

// FuzzDetect_facts is TestDetect_facts on any bytes.
func FuzzDetect_facts(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"t"}]}]}` + "\n" + `{"run_type":"tool"}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_use"}]}]}`,
		`[{"type":"human","data":{"content":"x"}},{"type":"ai"}]`,
		`{"object":"trace.span","span_data":{}}` + "\n",
		`{"content":{"type=tool_use":1},"role":"user"}`,
		`{"id":"t","turns":[],"st\u0065ps":[{"index":0,"name":"f","args":{}}],"metrics":{}}`,
		`{"id":"a","output":[{"role":"user"}]}` + "\n" + `{"messages":[{"role":"assistant","content":[{"type":"tool_use"}]}]}`,
		`{"output":[{"tool_calls":[]}]}` + "\n" + `{"type":"function_call","object":"response"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		sameSniffs(t, head)
	})
}

// sameSniffs compares, format by format, the sniff of a fresh head with
// that of a head whose facts are all read, and the format detected with
// the first that the second claims for.
func sameSniffs(t *testing.T, head []byte) {
	t.Helper()
	var want string
	for _, f := range trace.Formats() {
		if d, ok := f.(msglog.Disclaimer); ok && d.Disclaims(msglog.NewHead(head)) && f.Sniff(head) == nil {
			t.Errorf("head %.300q: %s disclaims it, and its sniff claims it", head, f.Name())
		}
		hs, ok := f.(msglog.HeadSniffer)
		if !ok {
			if want == "" && f.Sniff(head) == nil {
				want = f.Name()
			}
			continue
		}
		all := msglog.NewHead(head)
		all.Facts()
		got, exp := errString(hs.SniffHead(msglog.NewHead(head))), errString(hs.SniffHead(all))
		if got != exp {
			t.Errorf("head %.300q: %s says %s, with all the facts %s", head, f.Name(), got, exp)
		}
		if want == "" && exp == "claims" {
			want = f.Name()
		}
	}
	got := ""
	f, err := trace.Detect("x", head)
	if err == nil {
		got = f.Name()
	}
	if len(bytes.TrimSpace(head)) == 0 {
		// A head of white space is an empty file, whatever a binary
		// format's sniff makes of its bytes ("\n \n" starts a protobuf
		// message).
		if !errors.Is(err, trajeval.ErrEmptyTrace) {
			t.Errorf("head %q: detected as %q (%v), want %v", head, got, err, trajeval.ErrEmptyTrace)
		}
		return
	}
	if got != want {
		t.Errorf("head %.300q: detected as %q, want %q", head, got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return "claims"
	}
	if se, ok := err.(*trajeval.SniffError); ok {
		return fmt.Sprintf("%d %s", se.Closeness, se.Why)
	}
	return strings.TrimSpace(err.Error())
}
