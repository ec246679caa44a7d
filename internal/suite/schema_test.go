package suite_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/jsonschema"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

var update = flag.Bool("update", false, "rewrite schema/trajeval-suite.schema.json")

const schemaFile = "../../schema/trajeval-suite.schema.json"

// TestSchema_file checks that the shipped schema is the one Schema
// writes; -update rewrites it (go generate ./internal/suite).
func TestSchema_file(t *testing.T) {
	got, err := suite.Schema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(schemaFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go generate ./internal/suite (or go test ./internal/suite -run TestSchema_file -update)", schemaFile)
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := suite.Schema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(suite.SchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(suite.SchemaURL)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// validate checks a YAML suite against the schema, as an editor would.
func validate(t *testing.T, s *jsonschema.Schema, name string, data []byte) error {
	t.Helper()
	root, err := config.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(root.Value())
}

// notSuites are the YAML files of the repository that are not suites the
// schema describes, each with the reason. Every other YAML file under
// examples/ and testdata/ must load as an AgentV suite and be valid under
// the schema.
var notSuites = map[string]struct {
	why    string
	broken bool // it must fail to load, wherever the test runs
}{
	"../../testdata/broken.yaml": {"its mistakes are deliberate, for the error report's tests", true},
	"../../testdata/real/dialects/agentv/trace-evaluation/evals/coding-agent-replay.eval.yaml": {"its code assertions run bun, which loading looks for on PATH", false},
}

// suiteFiles lists the YAML files under examples/ and testdata/, less fuzz
// corpora, AgentV's target settings (.agentv/targets.yaml), which
// configure agents rather than describe cases, and the npm packages a
// generator of testdata/real installs (node_modules, not in the
// repository).
func suiteFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, root := range []string{"../../examples", "../../testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "fuzz" || d.Name() == ".agentv" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, filepath.ToSlash(path))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestSchema_suites checks that every suite of the repository loads as an
// AgentV suite and is valid under the schema, and that each file listed in
// notSuites is still found and still fails to load.
func TestSchema_suites(t *testing.T) {
	s := compileSchema(t)
	files := suiteFiles(t)
	found := map[string]bool{}
	for _, f := range files {
		found[f] = true
		t.Run(f, func(t *testing.T) {
			loaded, errs := suite.LoadFile(f, suite.Options{Dialects: dialects.All()}, true)
			if not, ok := notSuites[f]; ok {
				if not.broken && len(errs) == 0 {
					t.Errorf("%s loads, but notSuites lists it as broken (%s): check it or drop it from the list", f, not.why)
				}
				t.Skip(not.why)
			}
			if len(errs) > 0 || loaded == nil {
				t.Fatalf("%s does not load: %v (list it in notSuites, with the reason, if that is deliberate)", f, errs)
			}
			if loaded.Dialect != "agentv" {
				t.Fatalf("%s loads as %s, not as an AgentV suite", f, loaded.Dialect)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(t, s, f, data); err != nil {
				t.Errorf("%s loads, but the schema refuses it: %v", f, err)
			}
		})
	}
	for f := range notSuites {
		if !found[f] {
			t.Errorf("notSuites lists %s, which is gone", f)
		}
	}
	if len(files) <= len(notSuites) {
		t.Errorf("found %d YAML files; the examples moved?", len(files))
	}
}

// TestSchema_agrees checks the schema against the loader on suites that
// differ in one setting: what the loader accepts the schema accepts, and
// the mistakes a schema can see it refuses.
func TestSchema_agrees(t *testing.T) {
	s := compileSchema(t)
	const head = "evalcases:\n  - id: a\n    trace: t.json\n"
	tests := []struct {
		name, yaml string
		valid      bool
		reason     string
	}{
		{"minimal", head + "    execution:\n      evaluators:\n        - {type: tool_trajectory, mode: in_order, expected: [search]}\n", true, "the smallest suite"},
		{"camelCase keys", head + "    execution:\n      evaluators:\n        - {type: toolTrajectory, mode: inOrder, expected: [{tool: search, maxDurationMs: 5}], caseInsensitive: true}\n", true, "keys, types and words in any spelling"},
		{"kebab-case keys", head + "    skip-defaults: true\n    execution:\n      evaluators:\n        - {type: execution-metrics, max-tool-calls: 3}\n", true, "kebab-case too"},
		{"alias", head + "    execution:\n      evaluators:\n        - {type: uipath-tool-call-order, toolCallsOrder: [a, b]}\n", true, "UiPath's evaluatorTypeId is an alias"},
		{"composite", head + "    execution:\n      evaluators:\n        - type: composite\n          aggregator: {type: weighted_average, weights: {x: 2}}\n          evaluators: [{name: x, type: tool_efficiency}]\n", true, "members are evaluators"},
		{"turns", "evalcases:\n  - id: a\n    trace: t.json\n    mode: conversation\n    turns:\n      - input: hi\n        evaluators: [{type: execution_metrics, max_tool_calls: 1}]\n", true, "multi-turn case"},
		{"judge and targets", "judge: {model: m, timeout: 30s, price: {input: 1}}\ntargets: [{name: x, provider: cli, command: cat t.json}, {name: y, provider: openai, endpoint: e}]\nexecution: {target: x, workers: 2}\n" + head + "    evaluators: [{type: llm_judge, prompt: hi, judge: {model: n}}]\n", true, "unchosen targets are open: AgentV's providers have keys of their own"},
		{"unknown suite key", "evalcase:\n  - id: a\n", false, "a misspelt top-level key"},
		{"unknown evaluator key", head + "    evaluators: [{type: tool_trajectory, expected: [a], expect: [b]}]\n", false, "a key the type does not take"},
		{"key of another type", head + "    evaluators: [{type: tool_trajectory, expected: [a], max_tool_calls: 3}]\n", false, "execution_metrics's key on tool_trajectory"},
		{"wrong mode", head + "    evaluators: [{type: tool_trajectory, mode: inorder, expected: [a]}]\n", false, "inorder is no mode"},
		{"unknown type", head + "    evaluators: [{type: tool_trajectry, expected: [a]}]\n", false, "a misspelt type"},
		{"no type", head + "    evaluators: [{expected: [a]}]\n", false, "every evaluator has a type"},
		{"threshold out of range", "threshold: 2\n" + head, false, "a threshold is from 0 to 1"},
		{"vars", head + "    vars: {x: 1}\n", false, "vars are refused, never ignored"},
		{"no cases", "name: x\n", false, "a suite has cases"},
		{"grounding path as text", head + "    evaluators: [{type: grounding, ignore: search.limit}]\n", true, "one path may be written without a list, as the loader reads it"},
		{"evaluators only", "execution:\n  evaluators: [{type: tool_rules, rules: [{never: delete}]}]\n", true, "a suite with no cases scores every trajectory of --traces"},
		{"execution without evaluators", "execution: {threshold: 0.5}\n", false, "no cases and nothing to score them with"},
		{"case without id", "evalcases:\n  - trace: t.json\n", false, "a case has an id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := validate(t, s, "suite.yaml", []byte(tc.yaml))
			if (err == nil) != tc.valid {
				t.Errorf("schema valid = %v, want %v (%s); %v\n%s", err == nil, tc.valid, tc.reason, err, tc.yaml)
			}
			if !tc.valid {
				return
			}
			dir := write(t, map[string]string{"suite.yaml": tc.yaml, "t.json": "[]"})
			if _, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{Dialects: dialects.All()}, true); len(errs) > 0 {
				t.Errorf("the loader refuses what the schema accepts: %v", errs)
			}
		})
	}
}

// TestSchema_everyType checks that the schema knows every evaluator type
// with its own settings.
func TestSchema_everyType(t *testing.T) {
	data, err := suite.Schema()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"tool_trajectory"`, `"hallucinations_v1"`, `"uipath-tool-call-order"`, `"max_tool_calls"`, `"tool_calls_count"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the schema lacks %s", want)
		}
	}
}

// TestSchema_examples checks each evaluator type's example (the one
// `trajeval evaluators NAME` prints, which the loader accepts) against
// the schema.
func TestSchema_examples(t *testing.T) {
	s := compileSchema(t)
	for _, spec := range builtin.Specs() {
		t.Run(spec.Type, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("evalcases:\n  - id: a\n    execution:\n      evaluators:\n")
			for _, line := range strings.Split(strings.TrimRight(spec.Example, "\n"), "\n") {
				b.WriteString("        " + line + "\n")
			}
			if err := validate(t, s, "suite.yaml", []byte(b.String())); err != nil {
				t.Errorf("the schema refuses the example of %s: %v\n%s", spec.Type, err, b.String())
			}
		})
	}
}
