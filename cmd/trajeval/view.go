package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

func viewCmd() *cobra.Command {
	var db, addr, token string
	c := &cobra.Command{
		Use:   "view",
		Short: "Browse the run history in a web browser",
		Long: `Serve the run history as web pages, on this machine only by default:
the runs, newest first; each run's report (the page trajeval report
draws) with its filters and each case's timeline; its results as JSON
Lines; two runs compared; the scores of a suite over its runs; and the
cases whose verdict changes from run to run (flaky).

The database is --db, else $TRAJEVAL_DB, else the nearest
.trajeval/runs.db from the current folder up (docs/history.md). Ctrl-C
stops the server.

An --addr other than a loopback one (127.0.0.1, ::1, localhost) lets
other machines in, and needs --token (default $TRAJEVAL_TOKEN): every
request must then carry it, in the header Authorization: Bearer TOKEN or
in a cookie the server sets when a page is opened with ?token=TOKEN.`,
		Example: `  trajeval view --db examples
  trajeval view --addr 127.0.0.1:9000
  TRAJEVAL_TOKEN=s3cret trajeval view --addr 0.0.0.0:8080`,
		Args: noArgs("trajeval view [--db PATH] [--addr HOST:PORT]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if token == "" {
				token = getenv(cmd.Context())("TRAJEVAL_TOKEN")
			}
			if err := checkViewAddr(addr, token); err != nil {
				return usageError{err}
			}
			h, err := openHistory(cmd, db)
			if err != nil {
				return err
			}
			defer h.Close()
			l, err := net.Listen("tcp", addr)
			if err != nil {
				return usageError{fmt.Errorf("--addr %s: %w", addr, err)}
			}
			hint := ""
			if token != "" {
				hint = " (open it once with ?token=TOKEN)"
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "trajeval: serving %s on http://%s/%s (Ctrl-C to stop)\n", h.Where(), l.Addr(), hint)
			srv := &http.Server{Handler: requireToken(token, viewHandler(h)), ReadHeaderTimeout: 10 * time.Second}
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
	c.Flags().StringVar(&token, "token", "", "require this token on every request; needed to serve beyond loopback (default $TRAJEVAL_TOKEN)")
	return c
}

// checkViewAddr refuses an address other machines can reach without a
// token: any host but a loopback address or localhost, an empty host
// (every interface) included.
func checkViewAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w (give HOST:PORT, e.g. 127.0.0.1:8080)", addr, err)
	}
	if token != "" || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %s lets other machines read the run history: give --token (or set TRAJEVAL_TOKEN) to require a token, or serve on 127.0.0.1", addr)
}
