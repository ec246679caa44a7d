package builtin_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// TestSpecs_documented checks that the documentation cannot drift from
// the loader: every built-in type documents exactly the keys it takes,
// and its example loads.
func TestSpecs_documented(t *testing.T) {
	dir := t.TempDir()
	tools := `[{"name": "search", "description": "Search the web for a query.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}]`
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(tools), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range builtin.Specs() {
		t.Run(s.Type, func(t *testing.T) {
			if s.Summary == "" || s.Example == "" {
				t.Errorf("%s has no summary or no example: `trajeval evaluators` lists both", s.Type)
			}
			var documented []string
			for _, f := range s.Settings {
				if slices.Contains(documented, f.Key) {
					t.Errorf("%s documents %s twice", s.Type, f.Key)
				}
				documented = append(documented, f.Key)
				if f.Doc == "" || f.Shape.Text == "" || f.Shape.Schema == nil {
					t.Errorf("%s.%s lacks a description or a shape", s.Type, f.Key)
				}
			}
			for _, k := range s.Keys {
				if !slices.Contains(documented, config.Canon(k)) {
					t.Errorf("%s takes %s, which it does not document", s.Type, k)
				}
			}
			for _, k := range documented {
				if !slices.Contains(s.Keys, k) {
					t.Errorf("%s documents %s, which the loader refuses", s.Type, k)
				}
			}
			root, err := config.Parse("example.yaml", []byte(s.Example))
			if err != nil {
				t.Fatalf("example of %s: %v", s.Type, err)
			}
			if len(root.Items) != 1 {
				t.Fatalf("the example of %s is not a list of one evaluator:\n%s", s.Type, s.Example)
			}
			c, err := spec.Build(root.Items[0], &spec.Env{Types: builtin.Types(), Dir: dir})
			if err != nil {
				t.Fatalf("the example of %s does not load: %v\n%s", s.Type, err, s.Example)
			}
			if c.Type != s.Type {
				t.Errorf("the example of %s builds a %s", s.Type, c.Type)
			}
		})
	}
}

func TestCommonSettings(t *testing.T) {
	var keys []string
	for _, f := range spec.CommonSettings {
		keys = append(keys, f.Key)
	}
	if !slices.Equal(keys, spec.CommonKeys) {
		t.Errorf("CommonSettings document %v, the loader takes %v", keys, spec.CommonKeys)
	}
}

// TestTypes_undocumented checks that the registry the loader builds
// evaluators from leaves out the documentation docs.go makes, and that
// Documented carries it: each built-in type is the one Specs returns, but
// for its Summary and Example, empty in Types where docs.go writes them
// (the types that document themselves, Vertex AI's and the peers', keep
// theirs).
func TestTypes_undocumented(t *testing.T) {
	specs := builtin.Specs()
	tests := []struct {
		name       string
		reg        *spec.Registry
		documented bool
		reason     string
	}{
		{"Types", builtin.Types(), false, "eval's start need not make the documentation's shapes (1.2 M instructions)"},
		{"Documented", builtin.Documented(), true, "`trajeval evaluators` shows each type's summary, settings and example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.reg.Specs()
			if len(got) != len(specs) {
				t.Fatalf("%d types, want %d as Specs (%s)", len(got), len(specs), tt.reason)
			}
			empty := 0
			for i, s := range got {
				want := specs[i]
				if s.Type != want.Type || !slices.Equal(s.Keys, want.Keys) || s.Threshold != want.Threshold {
					t.Errorf("type %d: %s %v, want %s %v as Specs (%s)", i, s.Type, s.Keys, want.Type, want.Keys, tt.reason)
				}
				switch {
				case s.Summary == want.Summary && s.Example == want.Example:
				case s.Summary == "" && s.Example == "" && s.Settings == nil:
					empty++
				default:
					t.Errorf("%s: summary %q, example %q, neither Specs' nor empty", s.Type, s.Summary, s.Example)
				}
			}
			if documented := empty == 0; documented != tt.documented || (!documented && empty < 10) {
				t.Errorf("%d of %d types without their documentation; want none: %v (%s)", empty, len(got), tt.documented, tt.reason)
			}
		})
	}
}
