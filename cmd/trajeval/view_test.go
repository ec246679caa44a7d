package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/history"
)

// TestViewHandler checks view's pages against two recorded runs of the
// examples.
func TestViewHandler(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	old := filepath.Join(dir, "old.jsonl")
	for _, extra := range [][]string{{"--out", old}, {"--threshold", "0.5"}} {
		args := append([]string{"eval", "../../examples", "-q", "--db", db, "--format", "jsonl"}, extra...)
		if code, _, stderr := runArgs(t, args...); code > 1 {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
	}
	h, err := history.Open(t.Context(), db, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(viewHandler(h))
	defer srv.Close()
	want, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		code int
		has  []string
		why  string
	}{
		{"/", 200, []string{`<a href="runs/2">2</a>`, `<a href="runs/1">1</a>`, `<td class="done">done</td>`, `name="old"`}, "the runs, newest first, with a compare form"},
		{"/runs/1", 200, []string{"<title>trajeval run 1</title>", "product_search"}, "a run's report page"},
		{"/runs/last~1.jsonl", 200, []string{string(want)}, "a run's results, as its --out file"},
		{"/compare?old=1&new=last", 200, []string{"run 1 → run 2", "newly passing"}, "two runs compared as compare prints it"},
		{"/runs/99", 404, []string{"no such run 99"}, "a run that is not there"},
		{"/runs/junk", 404, []string{`"junk" is not a run`}, "not a run id"},
		{"/compare?old=1", 404, []string{`"" is not a run`}, "a comparison needs two runs"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Fatalf("%s: status %d, want %d (%s)\n%s", tt.path, resp.StatusCode, tt.code, tt.why, body)
			}
			for _, s := range tt.has {
				if !strings.Contains(string(body), s) {
					t.Errorf("%s: %s: the page lacks %q", tt.path, tt.why, s)
				}
			}
		})
	}
}
