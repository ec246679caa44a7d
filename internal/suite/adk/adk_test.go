package adk_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExample(t *testing.T) {
	s, errs := suite.LoadFile("../../../examples/adk-shopping/shopping.evalset.json", suite.Options{Dialects: dialects.All()}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Dialect != "adk" || len(s.Cases) != 3 {
		t.Fatalf("dialect %s, %d cases", s.Dialect, len(s.Cases))
	}
	c := s.Cases[1]
	if c.ID != "search_then_buy" || c.Input != "Do you have wireless headphones?" || len(c.Evaluators) != 2 {
		t.Fatalf("case %+v", c)
	}
	tr, rm := c.Evaluators[0], c.Evaluators[1]
	if tr.Name != "tool_trajectory_avg_score" || tr.Threshold != 1 || rm.Name != "response_match_score" || rm.Threshold != 0.6 {
		t.Errorf("evaluators %s %v, %s %v", tr.Name, tr.Threshold, rm.Name, rm.Threshold)
	}
}

const evalset = `{"eval_set_id": "s", "eval_cases": [
  {"eval_id": "c1", "conversation": [{"user_content": {"parts": [{"text": "hi"}]},
    "final_response": {"parts": [{"text": "done"}]},
    "intermediate_data": {"tool_uses": [{"name": "a", "args": {"x": 1}}]}}]}
]}`

// describe lists each evaluator as "name threshold [mode]", the mode read
// from a run on an empty trajectory.
func describe(s *suite.Suite) string {
	var out []string
	for _, e := range s.Cases[0].Evaluators {
		g := fmt.Sprintf("%s %g", e.Name, e.Threshold)
		if e.Name == "tool_trajectory_avg_score" {
			r := e.Run(context.Background(), &trajeval.Trajectory{})
			g += " " + r.Details.Mode
		}
		out = append(out, g)
	}
	return strings.Join(out, ", ")
}

func TestCriteria(t *testing.T) {
	tests := []struct {
		name   string
		config string // test_config.json beside the set; "" none
		want   string
		reason string
	}{
		{"ADK defaults", "", "tool_trajectory_avg_score 1 exact, response_match_score 0.8", "no test_config.json"},
		{"number", `{"criteria": {"tool_trajectory_avg_score": 0.5}}`, "tool_trajectory_avg_score 0.5 exact", "a bare threshold is EXACT"},
		{"object", `{"criteria": {"toolTrajectoryAvgScore": {"threshold": 1.0, "matchType": "any_order"}, "response_match_score": 0.7}}`,
			"tool_trajectory_avg_score 1 any_order, response_match_score 0.7", "camelCase keys and any spelling of the match type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"x.evalset.json": evalset}
			if tt.config != "" {
				files["test_config.json"] = tt.config
			}
			write(t, dir, files)
			s, errs := suite.LoadFile(filepath.Join(dir, "x.evalset.json"), suite.Options{Dialects: dialects.All()}, true)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := describe(s); got != tt.want {
				t.Errorf("got %s, want %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestConfigFlagAndShapes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"conf/strict.json": `{"criteria": {"tool_trajectory_avg_score": {"threshold": 0.9, "match_type": "IN_ORDER"}}}`,
		"one.test.json":    `{"eval_id": "solo", "conversation": [{"user_content": {"parts": [{"text": "q"}]}, "intermediate_data": {"tool_uses": [{"name": "a", "args": {}}]}}]}`,
		"legacy.test.json": `[{"query": "weather?", "expected_tool_use": [{"tool_name": "get_weather", "tool_input": {"city": "Paris"}}], "reference": "Sunny"}]`,
	})
	opts := suite.Options{Dialects: dialects.All(), Config: filepath.Join(dir, "conf/strict.json")}
	for file, id := range map[string]string{"one.test.json": "solo", "legacy.test.json": "case-1"} {
		s, errs := suite.LoadFile(filepath.Join(dir, file), opts, true)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", file, errs)
		}
		if len(s.Cases) != 1 || s.Cases[0].ID != id || describe(s) != "tool_trajectory_avg_score 0.9 in_order" {
			t.Errorf("%s: %d cases, id %q, %s", file, len(s.Cases), s.Cases[0].ID, describe(s))
		}
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		want   string
		reason string
	}{
		{"unknown metric", map[string]string{"test_config.json": `{"criteria": {"tool_trajectory_avg_scor": 1.0}}`},
			`test_config.json:1:15: criteria.tool_trajectory_avg_scor: unknown metric "tool_trajectory_avg_scor" (did you mean "tool_trajectory_avg_score"?)`, "a typo is not ignored"},
		{"vertex metric", map[string]string{"test_config.json": `{"criteria": {"safety_v1": 0.8}}`},
			"needs Vertex AI", "never silently skipped"},
		{"rubric metric without rubrics", map[string]string{"test_config.json": `{"criteria": {"rubric_based_tool_use_quality_v1": 0.8}}`},
			"eval case c1: rubric_based_tool_use_quality_v1 needs rubrics", "rubrics are what is judged: the criterion's, the case's or the invocations'"},
		{"intermediate responses", map[string]string{"test_config.json": `{"criteria": {"hallucinations_v1": {"threshold": 0.8, "evaluate_intermediate_nl_responses": true}}}`},
			"final response only", "a setting trajeval cannot honour is an error"},
		{"judge model config", map[string]string{"test_config.json": `{"criteria": {"final_response_match_v2": {"threshold": 0.8, "judge_model_options": {"judge_model_config": {"top_k": 3}}}}}`},
			"judge_model_config is Gemini's generation config", "a setting trajeval cannot honour is an error"},
		{"wrong shape", map[string]string{"test_config.json": `{"criteria": {"tool_trajectory_avg_score": "high"}}`},
			"must be a threshold or {threshold, match_type}", "criteria of the wrong shape"},
		{"bad match type", map[string]string{"test_config.json": `{"criteria": {"tool_trajectory_avg_score": {"threshold": 1, "match_type": "INORDER"}}}`},
			`test_config.json:1:75: criteria.tool_trajectory_avg_score.match_type: unknown value "INORDER" (did you mean "IN_ORDER"?)`, "placed at the value"},
		{"misspelt criterion key", map[string]string{"test_config.json": `{"criteria": {"tool_trajectory_avg_score": {"threshhold": 1}}}`},
			`did you mean "threshold"?`, "unknown keys are errors"},
		{"threshold out of range", map[string]string{"test_config.json": `{"criteria": {"response_match_score": 80}}`},
			"between 0 and 1", "ADK thresholds are fractions"},
		{"no final response", map[string]string{"x.evalset.json": `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c1", "conversation": [{"intermediate_data": {"tool_uses": []}}]}]}`},
			"x.evalset.json:1:38: eval_cases[0]: eval case c1 has no expected final_response for response_match_score", "default metrics need a reference"},
		{"no invocations", map[string]string{"x.evalset.json": `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c1", "conversation": []}]}`},
			"eval case c1 has no invocations", "nothing to score"},
		{"bad json", map[string]string{"x.evalset.json": `{"eval_set_id": "s", "eval_cases": [{"eval_id": }]}`},
			"x.evalset.json:1:", "syntax errors are placed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"x.evalset.json": evalset}
			for k, v := range tt.files {
				files[k] = v
			}
			write(t, dir, files)
			_, errs := suite.LoadFile(filepath.Join(dir, "x.evalset.json"), suite.Options{Dialects: dialects.All()}, true)
			if len(errs) == 0 {
				t.Fatalf("no error, want %q (%s)", tt.want, tt.reason)
			}
			got := strings.ReplaceAll(errs[0].Error(), dir+string(filepath.Separator), "")
			if !errors.Is(errs[0], trajeval.ErrConfig) || !strings.Contains(got, tt.want) {
				t.Errorf("error = %s\nwant it to contain %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}
