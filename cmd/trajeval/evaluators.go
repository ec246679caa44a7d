package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/shape"
	"github.com/trajeval/trajeval/internal/suggest"
)

func evaluatorsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "evaluators [NAME]",
		Short: "List the evaluator types, or show one type's settings",
		Long: `List every evaluator type a suite may use: its name, its other names and
what it scores, one line each.

With NAME (any spelling, or an alias), show that type's settings: each
key with the values it takes, its default and what it does, the settings
every evaluator takes, and an example. The list comes from the definitions
the suite loader uses, so it is always the loader's.`,
		Args: needs(0, 1, "one evaluator type at most", "trajeval evaluators [NAME]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			types := builtin.Documented()
			w := cmd.OutOrStdout()
			if len(args) == 0 {
				if asJSON {
					var out []evaluatorJSON
					for _, s := range types.Specs() {
						out = append(out, summaryJSON(s))
					}
					return writeJSON(w, out)
				}
				listEvaluators(w, types.Specs())
				return nil
			}
			s, ok := types.Lookup(args[0])
			if !ok {
				msg := fmt.Sprintf("unknown evaluator type %q", args[0])
				if sug := suggest.Closest(args[0], types.Types()); sug != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", sug)
				}
				return usageError{fmt.Errorf("%s\nrun 'trajeval evaluators' for the list", msg)}
			}
			if asJSON {
				out := summaryJSON(s)
				out.Settings = settingsJSON(s.Settings)
				out.Common = settingsJSON(spec.CommonSettings)
				out.Example = s.Example
				return writeJSON(w, out)
			}
			showEvaluator(w, s)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	return c
}

// evaluatorJSON is an evaluator type as `evaluators --json` prints it.
type evaluatorJSON struct {
	Name      string        `json:"name"`
	Aliases   []string      `json:"aliases"`
	Summary   string        `json:"summary"`
	Threshold float64       `json:"threshold"`
	Settings  []settingJSON `json:"settings,omitempty"`
	Common    []settingJSON `json:"common_settings,omitempty"`
	Example   string        `json:"example,omitempty"`
}

type settingJSON struct {
	Key         string `json:"key"`
	Type        string `json:"type"`
	Default     string `json:"default,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Description string `json:"description"`
}

func summaryJSON(s *spec.Spec) evaluatorJSON {
	aliases := s.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return evaluatorJSON{Name: s.Type, Aliases: aliases, Summary: s.Summary, Threshold: s.Threshold}
}

func settingsJSON(fs []shape.Field) []settingJSON {
	out := []settingJSON{}
	for _, f := range fs {
		out = append(out, settingJSON{Key: f.Key, Type: f.Shape.Text, Default: f.Default, Required: f.Required, Description: f.Doc})
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(jsonv.NewWriter(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// listEvaluators prints one line per type: name, summary, other names.
func listEvaluators(w io.Writer, specs []*spec.Spec) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range specs {
		line := s.Type + "\t" + s.Summary
		if len(s.Aliases) > 0 {
			line = s.Type + "\t" + strings.TrimSuffix(s.Summary, ".") + " (also " + strings.Join(s.Aliases, ", ") + ")."
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nrun 'trajeval evaluators NAME' for a type's settings and an example")
}

// showEvaluator prints a type's settings, the common ones and its example.
func showEvaluator(w io.Writer, s *spec.Spec) {
	fmt.Fprintf(w, "%s: %s\n", s.Type, s.Summary)
	if len(s.Aliases) > 0 {
		fmt.Fprintf(w, "also called: %s\n", strings.Join(s.Aliases, ", "))
	}
	fmt.Fprintf(w, "default threshold: %s\n", strconv.FormatFloat(s.Threshold, 'f', -1, 64))
	fmt.Fprintln(w, "\nSettings:")
	if len(s.Settings) == 0 && len(s.Keys) == 0 {
		fmt.Fprintln(w, "  none of its own")
	}
	printSettings(w, s.Settings)
	for _, k := range s.Keys {
		if !documented(s.Settings, k) {
			// A type registered by a program may list keys it does not
			// document: still name them.
			fmt.Fprintf(w, "  %s\n", k)
		}
	}
	fmt.Fprintln(w, "\nSettings every evaluator takes:")
	printSettings(w, spec.CommonSettings)
	if s.Example != "" {
		fmt.Fprintln(w, "\nExample:")
		fmt.Fprintln(w, "  execution:\n    evaluators:")
		for _, line := range strings.Split(strings.TrimRight(s.Example, "\n"), "\n") {
			fmt.Fprintln(w, "      "+line)
		}
	}
}

func documented(fs []shape.Field, key string) bool {
	for _, f := range fs {
		if f.Key == key {
			return true
		}
	}
	return false
}

// printSettings prints each setting as two lines: its key, its values and
// default; then what it does.
func printSettings(w io.Writer, fs []shape.Field) {
	for _, f := range fs {
		var about []string
		if f.Required {
			about = append(about, "required")
		}
		if f.Default != "" {
			about = append(about, "default "+f.Default)
		}
		line := fmt.Sprintf("  %s: %s", f.Key, f.Shape.Text)
		if len(about) > 0 {
			line += " (" + strings.Join(about, "; ") + ")"
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "      %s\n", f.Doc)
	}
}
