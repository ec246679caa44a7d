package dialects_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/adk"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/suite/uipath"
)

var update = flag.Bool("update", false, "rewrite the key tables of docs/dialects.md")

const dialectsDoc = "../../../docs/dialects.md"

// keyTables are the tables docs/dialects.md shows, in its order.
var keyTables = []*suite.KeyTable{&suite.AgentVKeys, &adk.Keys, &uipath.Keys}

// TestKeyTables_docs keeps the key tables of docs/dialects.md the same as
// the loaders' (go test ./internal/suite/dialects -run TestKeyTables_docs
// -update rewrites them).
func TestKeyTables_docs(t *testing.T) {
	data, err := os.ReadFile(dialectsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, kt := range keyTables {
		begin, end := "<!-- keys:"+kt.Dialect+" -->\n", "<!-- /keys:"+kt.Dialect+" -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s has no %q … %q section", dialectsDoc, strings.TrimSpace(begin), end)
		}
		want := render(kt)
		if got := doc[i+len(begin) : j]; got != want {
			if !*update {
				t.Errorf("the %s key table of %s is stale: run go test ./internal/suite/dialects -run TestKeyTables_docs -update", kt.Dialect, dialectsDoc)
				continue
			}
			doc = doc[:i+len(begin)] + want + doc[j:]
		}
	}
	if *update {
		if err := os.WriteFile(dialectsDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKeyTables_unique checks that no key is listed twice for one object.
func TestKeyTables_unique(t *testing.T) {
	for _, kt := range keyTables {
		seen := map[string]bool{}
		for _, k := range kt.Keys {
			id := k.Object + "." + k.Name
			if seen[id] {
				t.Errorf("%s: %s is listed twice", kt.Dialect, id)
			}
			seen[id] = true
			if k.Use == suite.Inert && k.Note == "" {
				t.Errorf("%s: %s has no effect here, but its note does not say why", kt.Dialect, id)
			}
		}
	}
}

// render writes a table as markdown: one row per key.
func render(kt *suite.KeyTable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Taken from %s.\n\n", kt.Peer)
	b.WriteString("| object | key | trajeval | how |\n|---|---|---|---|\n")
	for _, k := range kt.Keys {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", k.Object, k.Name, k.Use, strings.ReplaceAll(k.Note, "|", `\|`))
	}
	return b.String()
}

// TestKeyTables_loaders checks that the loaders take every key their table
// does not refuse: a suite with one such key loads, warned or not, never
// refused as unknown.
func TestKeyTables_loaders(t *testing.T) {
	// The smallest suite of each object, with KEY standing for the key.
	agentv := map[string]string{
		"suite":     "KEY: null\ntests:\n  - id: c\n    assertions: [{type: tool_trajectory, mode: any_order, expected: [a]}]\n",
		"case":      "tests:\n  - id: c\n    KEY: null\n    assertions: [{type: tool_trajectory, mode: any_order, expected: [a]}]\n",
		"execution": "tests:\n  - id: c\n    execution:\n      KEY: null\n      assertions: [{type: tool_trajectory, mode: any_order, expected: [a]}]\n",
		"turn":      "tests:\n  - id: c\n    mode: conversation\n    turns:\n      - KEY: null\n        assertions: [{type: tool_trajectory, mode: any_order, expected: [a]}]\n",
	}
	for _, k := range suite.AgentVKeys.Keys {
		src, ok := agentv[k.Object]
		if !ok || k.Use == suite.Refused {
			continue
		}
		t.Run("agentv "+k.Object+"."+k.Name, func(t *testing.T) {
			dir := t.TempDir()
			p := dir + "/suite.yaml"
			if err := os.WriteFile(p, []byte(strings.Replace(src, "KEY", k.Name, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs := suite.LoadFile(p, suite.Options{Dialects: dialects.All()}, true)
			for _, err := range errs {
				if strings.Contains(err.Error(), "unknown key") {
					t.Errorf("%s is in the table as %s, but the loader refuses it: %v", k.Name, k.Use, err)
				}
			}
		})
	}
	adkFiles := map[string]string{
		"config":              `{"criteria": {"tool_trajectory_avg_score": 1.0}, "KEY": null}`,
		"criterion":           `{"criteria": {"hallucinations_v1": {"threshold": 0.5, "KEY": null}}}`,
		"judge_model_options": `{"criteria": {"final_response_match_v2": {"threshold": 0.5, "judge_model_options": {"KEY": null}}}}`,
	}
	set := `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c", "conversation": [{"user_content": {"parts": [{"text": "hi"}]}, "final_response": {"parts": [{"text": "done"}]}}]}]}`
	for _, k := range adk.Keys.Keys {
		src, ok := adkFiles[k.Object]
		if !ok || k.Use == suite.Refused {
			continue
		}
		t.Run("adk "+k.Object+"."+k.Name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(dir+"/test_config.json", []byte(strings.Replace(src, "KEY", k.Name, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dir+"/s.evalset.json", []byte(set), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs := suite.LoadFile(dir+"/s.evalset.json", suite.Options{Dialects: dialects.All()}, true)
			for _, err := range errs {
				if strings.Contains(err.Error(), "unknown key") {
					t.Errorf("%s is in the table as %s, but the loader refuses it: %v", k.Name, k.Use, err)
				}
			}
		})
	}
}
