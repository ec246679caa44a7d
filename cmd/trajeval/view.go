package main

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/compare"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/report"
)

func viewCmd() *cobra.Command {
	var db, addr string
	c := &cobra.Command{
		Use:   "view",
		Short: "Browse the run history in a web browser",
		Long: `Serve the run history as web pages, on this machine only by default:
the runs, newest first; each run's report (the page trajeval report
draws); its results as JSON Lines; and the comparison of two runs.

The database is --db, else $TRAJEVAL_DB, else the nearest
.trajeval/runs.db from the current folder up (docs/history.md). Ctrl-C
stops the server.`,
		Example: `  trajeval view --db examples
  trajeval view --addr 127.0.0.1:9000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			h, err := openHistory(cmd, db)
			if err != nil {
				return err
			}
			defer h.Close()
			l, err := net.Listen("tcp", addr)
			if err != nil {
				return usageError{fmt.Errorf("--addr %s: %w", addr, err)}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "trajeval: serving %s on http://%s/ (Ctrl-C to stop)\n", h.Where(), l.Addr())
			srv := &http.Server{Handler: viewHandler(h), ReadHeaderTimeout: 10 * time.Second}
			go func() {
				<-cmd.Context().Done()
				srv.Close()
			}()
			if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	dbFlag(c.Flags(), &db)
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the address to serve on (host:port; port 0 picks a free one)")
	return c
}

// viewHandler serves the pages of view:
//
//	/                       the runs, newest first, and a form to compare two
//	/runs/RUN               a run's report (RUN: an id, last, last~N)
//	/runs/RUN.jsonl         its results, as eval --out wrote them
//	/compare?old=A&new=B    the comparison of two runs, as compare prints it
func viewHandler(h *history.DB) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		runs, err := h.Runs(r.Context(), history.Filter{})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		type row struct {
			history.Run
			Suites, Commit, Started, Duration, Status string
		}
		rows := make([]row, len(runs))
		for i, run := range runs {
			rows[len(runs)-1-i] = row{Run: run, Suites: strings.Join(run.Suites, ", "), Commit: run.Commit,
				Started: run.Start.Local().Format("2006-01-02 15:04:05"), Duration: duration(run), Status: status(run)}
		}
		var buf bytes.Buffer
		if err := indexPage.Execute(&buf, struct {
			Where string
			Runs  []row
		}{h.Where(), rows}); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(buf.Bytes())
	})
	mux.HandleFunc("GET /runs/{run}", func(w http.ResponseWriter, r *http.Request) {
		ref, jsonl := strings.CutSuffix(r.PathValue("run"), ".jsonl")
		run, results, data, err := runRows(r.Context(), h, ref)
		if err != nil {
			httpError(w, err)
			return
		}
		if jsonl {
			w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
			w.Write(data)
			return
		}
		name := "run " + strconv.FormatInt(run.ID, 10)
		rows, _, err := report.ReadRows(bytes.NewReader(data), name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		var buf bytes.Buffer
		page := &report.HTML{W: &buf, Title: "trajeval " + name}
		for _, row := range rows {
			if err := page.Row(row); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		if err := page.Close(summarize(results)); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(buf.Bytes())
	})
	mux.HandleFunc("GET /compare", func(w http.ResponseWriter, r *http.Request) {
		var files [2]*compare.File
		for i, key := range []string{"old", "new"} {
			run, _, data, err := runRows(r.Context(), h, r.FormValue(key))
			if err != nil {
				httpError(w, err)
				return
			}
			if files[i], err = compare.Parse("run "+strconv.FormatInt(run.ID, 10), data); err != nil {
				http.Error(w, err.Error(), http.StatusUnprocessableEntity)
				return
			}
		}
		var text bytes.Buffer
		rep, err := compare.Compare(files[0], files[1], compare.Options{Confidence: 0.95})
		if err == nil {
			err = compare.Write(&text, rep, "text")
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		var buf bytes.Buffer
		if err := comparePage.Execute(&buf, struct{ Old, New, Text string }{files[0].Name, files[1].Name, text.String()}); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(buf.Bytes())
	})
	return mux
}

// httpError answers a run that is not there with 404, anything else with
// 500.
func httpError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, history.ErrNoRun) || strings.Contains(err.Error(), "is not a run") {
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}

const viewStyle = `<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right}.interrupted{color:#b60}.fail{color:#b00}pre{background:#f6f6f6;padding:1em}
</style>`

var indexPage = template.Must(template.New("index").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trajeval runs</title>` + viewStyle + `</head><body>
<h1>trajeval runs</h1>
<p>{{.Where}}</p>
{{if .Runs}}<form action="compare">compare run <input name="old" size="8" value="last~1"> with run <input name="new" size="8" value="last"> <button>compare</button></form>
<table><tr><th>run</th><th>suites</th><th>commit</th><th>started</th><th>duration</th><th>passed</th><th>failed</th><th>errors</th><th>status</th><th></th></tr>
{{range .Runs}}<tr><td><a href="runs/{{.ID}}">{{.ID}}</a></td><td>{{.Suites}}</td><td title="{{.Run.Branch}}">{{printf "%.10s" .Commit}}</td><td>{{.Started}}</td><td>{{.Duration}}</td><td class="n">{{.Passed}}</td><td class="n{{if .Failed}} fail{{end}}">{{.Failed}}</td><td class="n{{if .Errors}} fail{{end}}">{{.Errors}}</td><td class="{{.Status}}">{{.Status}}</td><td><a href="runs/{{.ID}}.jsonl">jsonl</a></td></tr>
{{end}}</table>{{else}}<p>No run recorded yet: every trajeval eval records one.</p>{{end}}
</body></html>
`))

var comparePage = template.Must(template.New("compare").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trajeval compare {{.Old}} → {{.New}}</title>` + viewStyle + `</head><body>
<h1>{{.Old}} → {{.New}}</h1>
<p><a href="./">all runs</a></p>
<pre>{{.Text}}</pre>
</body></html>
`))
