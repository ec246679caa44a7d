package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trajeval/trajeval/internal/report"
)

// viewFlags are how eval's report on standard output looks: --color and
// --failed-only.
type viewFlags struct {
	colour     string
	failedOnly bool
}

func (v *viewFlags) register(f *pflag.FlagSet) {
	f.StringVar(&v.colour, "color", "auto", "colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never")
	f.StringVar(&v.colour, "colour", "auto", "the same as --color")
	_ = f.MarkHidden("colour")
	f.BoolVar(&v.failedOnly, "failed-only", false, "report only the cases that did not pass (the summary still counts every case)")
}

// apply sets up the report w on stdout: colour and --failed-only.
func (v *viewFlags) apply(cmd *cobra.Command, format string, w report.Writer, stdout io.Writer) (report.Writer, error) {
	on, err := useColour(v.colour, getenv(cmd.Context()), isTerminal(stdout))
	if err != nil {
		return nil, usageError{err}
	}
	t, text := w.(*report.Text)
	if text {
		t.Colour = on
	} else if v.colour == "always" {
		return nil, usageError{fmt.Errorf("--color always applies to the text report, not to --format %s", format)}
	}
	if v.failedOnly {
		if w, err = report.FailedOnly(w); err != nil {
			return nil, usageError{err}
		}
	}
	return w, nil
}

// useColour decides whether the text report is in colour. Its rules, the
// first that applies:
//  1. --color always or never;
//  2. NO_COLOR set to anything but "": no colour (no-color.org);
//  3. FORCE_COLOR set to anything but "" or "0": colour, for CI logs that
//     show colours though they are not terminals;
//  4. colour when standard output is a terminal (not a file, not a pipe,
//     not TERM=dumb).
func useColour(flag string, getenv func(string) string, terminal bool) (bool, error) {
	switch flag {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
	default:
		return false, fmt.Errorf("unknown --color %q (auto, always, never)", flag)
	}
	if getenv("NO_COLOR") != "" {
		return false, nil
	}
	if f := getenv("FORCE_COLOR"); f != "" && f != "0" {
		return true, nil
	}
	return terminal, nil
}
