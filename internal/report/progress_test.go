package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/report"
)

// feed sends rows to w as if case i were done at i×step after the start.
func feed(t *testing.T, w report.Writer, p *report.Progress, rows []trajeval.CaseResult, step time.Duration) {
	t.Helper()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	p.Now = func() time.Time { return now }
	for i, r := range rows {
		now = start.Add(time.Duration(i) * step)
		if err := w.Case(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(report.Summary{}); err != nil {
		t.Fatal(err)
	}
}

func statuses(n int) []trajeval.CaseResult {
	rows := make([]trajeval.CaseResult, n)
	for i := range rows {
		rows[i] = trajeval.CaseResult{ID: "c", Status: [...]trajeval.Status{trajeval.StatusPass, trajeval.StatusPass, trajeval.StatusFail}[i%3]}
	}
	return rows
}

func TestProgress_plain(t *testing.T) {
	tests := []struct {
		name   string
		cases  int
		total  int
		step   time.Duration
		want   string
		reason string
	}{
		{"short run", 5, 5, 100 * time.Millisecond, "", "a run shorter than the interval prints nothing"},
		{"long run", 30, 30, time.Second,
			"progress: 11/30 cases (36%), 8 passed, 3 failed, 1.1/s, about 17s left\n" +
				"progress: 21/30 cases (70%), 14 passed, 7 failed, 1.1/s, about 9s left\n",
			"a line every 10 seconds, never one per case"},
		{"unknown total", 11, 0, time.Second, "progress: 11 cases, 8 passed, 3 failed, 1.1/s\n", "without a total: no percentage, no time left"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			p := &report.Progress{W: &b, Total: tt.total}
			feed(t, p, p, statuses(tt.cases), tt.step)
			if b.String() != tt.want {
				t.Errorf("got %q, want %q: %s", b.String(), tt.want, tt.reason)
			}
		})
	}
}

// TestProgress_terminal checks the terminal line: drawn in place, erased
// before each case's report and at the end, so that report lines are
// never written over it.
func TestProgress_terminal(t *testing.T) {
	var b bytes.Buffer
	p := &report.Progress{W: &b, Total: 4, Terminal: true}
	w := p.Wrap(&report.Text{W: &b})
	rows := statuses(4)
	for i := range rows {
		rows[i].ID = string(rune('a' + i))
	}
	feed(t, w, p, rows, 30*time.Millisecond)
	out := b.String()
	if !strings.Contains(out, "\r\x1b[K[======>                 ] 1/4 cases (25%), 1 passed, 0 failed") {
		t.Errorf("no bar after the first case:\n%q", out)
	}
	for _, id := range []string{"b", "c", "d"} {
		if i := strings.Index(out, "  "+id+"  score"); i < 0 || !strings.HasSuffix(out[:i-4], "\r\x1b[K") {
			t.Errorf("case %s is written without erasing the bar first:\n%q", id, out)
		}
	}
	if !strings.Contains(out, "\r\x1b[K\n0 of 0 cases passed") {
		t.Errorf("the bar is not erased before the summary:\n%q", out)
	}
}

// TestProgress_escaped checks that the bar still draws on a terminal whose
// writer escapes what the run quotes (standard error, for warnings): its
// own control sequences reach the terminal as they are.
func TestProgress_escaped(t *testing.T) {
	var b bytes.Buffer
	p := &report.Progress{W: escape.NewWriter(&b), Total: 2, Terminal: true}
	feed(t, p, p, statuses(2), 30*time.Millisecond)
	if out := b.String(); !strings.Contains(out, "\r\x1b[K[") || strings.Contains(out, `\x1b`) {
		t.Errorf("the bar is not drawn in place through an escape.Writer:\n%q", out)
	}
}
