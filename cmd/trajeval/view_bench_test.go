package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/history/historytest"
)

// benchHistory returns a SQLite history of many runs, recorded by
// historytest.Fill: TRAJEVAL_BENCH_RUNS runs (50 by default) of
// TRAJEVAL_BENCH_CASES cases (2,000). With TRAJEVAL_BENCH_DB set, the
// history is that file, filled when it does not exist and kept for the
// next benchmark; else a temporary file.
func benchHistory(b *testing.B) string {
	b.Helper()
	n := func(env string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(env)); err == nil && v > 0 {
			return v
		}
		return def
	}
	runs, cases := n("TRAJEVAL_BENCH_RUNS", 50), n("TRAJEVAL_BENCH_CASES", 2000)
	db := os.Getenv("TRAJEVAL_BENCH_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "runs.db")
	} else if _, err := os.Stat(db); err == nil {
		return db
	}
	h, err := history.Open(context.Background(), db, history.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	start := time.Now()
	if err := historytest.Fill(context.Background(), h, runs, cases); err != nil {
		os.Remove(db)
		b.Fatal(err)
	}
	b.Logf("recorded %d runs of %d cases in %s in %v", runs, cases, db, time.Since(start).Round(time.Millisecond))
	return db
}

// BenchmarkView serves each page of the viewer from a history of many
// runs (see benchHistory).
func BenchmarkView(b *testing.B) {
	db := benchHistory(b)
	start := time.Now()
	h, err := history.Open(b.Context(), db, history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.Logf("opened (and migrated) in %v", time.Since(start).Round(time.Millisecond))
	handler := viewHandler(h)
	for _, page := range []string{
		"/",
		"/?n=all",
		"/runs/last",
		"/runs/last.jsonl",
		"/case?run=last&id=case-00050",
		"/compare?old=last~1&new=last",
		"/chart?suite=bench",
		"/chart?suite=bench&case=case-00050",
		"/flaky?suite=bench",
		"/flaky?suite=bench&n=50",
	} {
		// first: a viewer just started, which has nothing kept; again:
		// the page drawn a second time.
		for _, fresh := range []bool{true, false} {
			name := cmpOr(strings.TrimPrefix(page, "/"), "runs") + map[bool]string{true: "/first", false: "/again"}[fresh]
			b.Run(name, func(b *testing.B) {
				size := 0
				for b.Loop() {
					if fresh {
						handler = viewHandler(h)
					}
					w := httptest.NewRecorder()
					handler.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+page, nil))
					if w.Code != http.StatusOK {
						b.Fatalf("%s: %d %s", page, w.Code, w.Body)
					}
					size = w.Body.Len()
				}
				b.ReportMetric(float64(size), "page-B")
			})
		}
	}
}

// BenchmarkHistoryCommands runs runs, show and compare on a history of
// many runs (see benchHistory).
func BenchmarkHistoryCommands(b *testing.B) {
	db := benchHistory(b)
	for _, args := range [][]string{
		{"runs"},
		{"runs", "--suite", "bench", "--since", "2026-01-15"},
		{"show", "last"},
		{"show", "last", "case-00050"},
		{"compare", "last~1", "last"},
	} {
		b.Run(strings.Join(args, "_"), func(b *testing.B) {
			for b.Loop() {
				var out, errb bytes.Buffer
				err := execute(context.Background(), append(args, "--db", db), strings.NewReader(""), &out, &errb)
				if code := exitCode(err, &errb); code > 1 {
					b.Fatalf("%v: exit %d\n%s", args, code, errb.String())
				}
			}
		})
	}
}
