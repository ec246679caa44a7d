package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// TestEvaluators_everyKey checks that `trajeval evaluators NAME` lists
// every key the loader accepts for the type, and no other: the help
// cannot drift from the loader.
func TestEvaluators_everyKey(t *testing.T) {
	setting := regexp.MustCompile(`(?m)^  ([a-z_0-9]+):`)
	for _, s := range builtin.Specs() {
		t.Run(s.Type, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := execute(context.Background(), []string{"evaluators", s.Type}, strings.NewReader(""), &out, &errOut); err != nil {
				t.Fatalf("evaluators %s: %v\n%s", s.Type, err, errOut.String())
			}
			help, _, _ := strings.Cut(out.String(), "\nExample:")
			var listed []string
			for _, m := range setting.FindAllStringSubmatch(help, -1) {
				listed = append(listed, m[1])
			}
			accepted := append(slices.Clone(spec.CommonKeys), s.Keys...)
			for _, k := range accepted {
				if !slices.Contains(listed, k) {
					t.Errorf("the loader accepts %s on %s, the help does not list it", k, s.Type)
				}
			}
			for _, k := range listed {
				if !slices.Contains(accepted, k) {
					t.Errorf("the help lists %s on %s, the loader refuses it", k, s.Type)
				}
			}
		})
	}
}
