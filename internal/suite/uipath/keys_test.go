package uipath_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

const orderFile = `{"version": "1.0", "id": "Order", "evaluatorTypeId": "uipath-tool-call-order",
  "evaluatorConfig": {"name": "Order", "strict": false, "defaultEvaluationCriteria": {"toolCallsOrder": ["a"]}}}`

const judgeEvaluator = `{"version": "1.0", "id": "Judge", "evaluatorTypeId": "uipath-llm-judge-output-semantic-similarity",
  "evaluatorConfig": {"name": "Judge", "targetOutputKey": %q, "model": "same-as-agent", "temperature": 0.0, "maxTokens": null}}`

// TestLoad_evaluators checks rule 1: only the evaluators a set references
// are read in full, and every key of UiPath's models is known.
func TestLoad_evaluators(t *testing.T) {
	set := func(refs, criteria string, more string) string {
		return `{"version": "1.0", "id": "s", "name": "S", "evaluatorRefs": [` + refs + `]` + more + `,
  "evaluations": [{"id": "e1", "name": "E", "inputs": {}, "evaluationCriterias": {` + criteria + `}}]}`
	}
	tests := []struct {
		name    string
		files   map[string]string
		warning string
		err     string
		reason  string
	}{
		{"broken file nobody references", map[string]string{
			"evaluators/order.json":  orderFile,
			"evaluators/broken.json": `{"id": "Other", "evaluatorTypeId": `,
		}, "not read, and not needed", "", "UiPath loads only the evaluators a set references"},
		{"unsupported type nobody references", map[string]string{
			"evaluators/order.json": orderFile,
			"evaluators/exact.json": `{"id": "Exact", "evaluatorTypeId": "uipath-exact-match", "evaluatorConfig": {"name": "E", "weird": 1}}`,
		}, "", "", "an evaluator no set references is not read past its id"},
		{"broken file when a reference is missing", map[string]string{
			"evaluators/broken.json": `{"id": "Order", "evaluatorTypeId": `,
		}, "", `evaluator "Order" not found`, "the broken file may be the one the set looks for"},
		{"targetOutputKey star", map[string]string{
			"evaluators/order.json": orderFile,
			"evaluators/judge.json": strings.Replace(judgeEvaluator, "%q", `"*"`, 1),
		}, "", "", "targetOutputKey is a real field of UiPath's output evaluators; * is the whole output"},
		{"targetOutputKey of one field", map[string]string{
			"evaluators/order.json": orderFile,
			"evaluators/judge.json": strings.Replace(judgeEvaluator, "%q", `"result"`, 1),
		}, "", "", "targetOutputKey names the part of the output judged"},
		{"targetOutputKey the expected output lacks", map[string]string{
			"evaluators/order.json": orderFile,
			"evaluators/judge.json": strings.Replace(judgeEvaluator, "%q", `"report.total"`, 1),
		}, "", "the expected output has no such value", "UiPath refuses an expected output without the key, and so does trajeval, before anything runs"},
		{"model settings", map[string]string{
			"evaluators/order.json": orderFile,
			"set.json":              set(`"Order"`, `"Order": null`, `, "modelSettings": [{"id": "m", "modelName": "gpt-4o"}], "agentMemoryEnabled": false`),
		}, "modelSettings has no effect here", "", "a setting with no effect here is a warning that names it"},
		{"mocking strategy", map[string]string{
			"evaluators/order.json": orderFile,
			"set.json": `{"id": "s", "name": "S", "evaluatorRefs": ["Order"], "evaluations": [{"id": "e1", "name": "E", "inputs": {}, "expectedAgentBehavior": "",
  "mockingStrategy": {"type": "llm", "prompt": "x"}, "evaluationCriterias": {"Order": null}}]}`,
		}, "mockingStrategy has no effect here", "", "recorded runs mock nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for k, v := range tt.files {
				files["evaluations/"+k] = v
			}
			if _, ok := tt.files["set.json"]; !ok {
				refs, crit := `"Order"`, `"Order": null`
				if _, ok := tt.files["evaluators/judge.json"]; ok {
					refs, crit = `"Order", "Judge"`, `"Order": null, "Judge": {"expectedOutput": {"result": 8}}`
				}
				files["evaluations/set.json"] = set(refs, crit, "")
			}
			write(t, dir, files)
			s, errs := suite.LoadFile(filepath.Join(dir, "evaluations", "set.json"), suite.Options{Dialects: dialects.All()}, true)
			if tt.err != "" {
				var all []string
				for _, e := range errs {
					all = append(all, e.Error())
				}
				if !strings.Contains(strings.Join(all, "\n"), tt.err) {
					t.Fatalf("errors %q, want %q (%s)", all, tt.err, tt.reason)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %v (%s)", errs, tt.reason)
			}
			var ws []string
			for _, w := range s.Warnings {
				ws = append(ws, w.String())
			}
			if tt.warning != "" && !strings.Contains(strings.Join(ws, "\n"), tt.warning) {
				t.Errorf("warnings %q, want %q (%s)", ws, tt.warning, tt.reason)
			}
			if tt.warning == "" && len(ws) > 0 {
				t.Errorf("warnings %q, want none (%s)", ws, tt.reason)
			}
		})
	}
}
