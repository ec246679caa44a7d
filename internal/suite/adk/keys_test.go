package adk_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// TestLoad_keys checks that every key of ADK's own models is known: used,
// or accepted with a warning that names it, never refused as a typo.
func TestLoad_keys(t *testing.T) {
	rubric := `"rubric_based_final_response_quality_v1": {"threshold": 0.8, "rubrics": [{"rubricId": "r", "rubricContent": {"textProperty": "Concise."}}]}`
	caseRubrics := `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c1", "rubrics": [{"rubric_id": "x", "rubric_content": {"text_property": "Kind."}}],
  "conversation": [{"user_content": {"parts": [{"text": "hi"}]}, "final_response": {"parts": [{"text": "done"}]}}]}]}`
	tests := []struct {
		name    string
		config  string // test_config.json, "" for none
		set     string // "" for the package's evalset
		warning string // a warning that must be given, "" for none
		err     string // an error that must be given, "" for none
		reason  string
	}{
		{"camelCase config by pydantic", `{"criteria": {"tool_trajectory_avg_score": {"threshold": 1.0, "includeIntermediateResponsesInFinal": false, "matchType": "IN_ORDER"}}, "customMetrics": null, "userSimulatorConfig": null}`,
			"", "", "", "ADK 2.x writes every field of its models, defaults included"},
		{"intermediate responses asked", `{"criteria": {"final_response_match_v2": {"threshold": 0.8, "includeIntermediateResponsesInFinal": true, "judgeModelOptions": {"judgeModel": "m", "judgeModelConfig": null, "numSamples": 1}}}}`,
			"", "includeIntermediateResponsesInFinal has no effect here", "", "traces keep each turn's final response only: said, not refused"},
		{"user simulator config", `{"criteria": {"tool_trajectory_avg_score": 1.0}, "user_simulator_config": {"model": "gemini-2.5-flash"}}`,
			"", "user_simulator_config has no effect here", "", "no simulator runs, and the config is harmless"},
		{"typo in the config", `{"criteria": {"tool_trajectory_avg_score": {"threshold": 1.0, "match_typ": "EXACT"}}}`,
			"", "", `unknown key "match_typ"`, "a key of none of ADK's models is still a mistake in a setting"},
		{"session input and state", "", `{"eval_set_id": "s", "creation_timestamp": 1.5, "eval_cases": [{"eval_id": "c1", "session_input": {"app_name": "a", "user_id": "u", "state": {}}, "final_session_state": {"k": 1},
  "conversation": [{"invocation_id": "i", "creation_timestamp": 0, "user_content": {"parts": [{"text": "hi"}]}, "final_response": {"parts": [{"text": "done"}]},
    "intermediate_data": {"tool_uses": [], "tool_responses": [], "intermediate_responses": []}}]}]}`,
			"final_session_state has no effect here", "", "a set ADK wrote loads whole"},
		{"unknown set key", "", `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c1", "conversaton_notes": "x", "conversation": [{"user_content": {"parts": [{"text": "hi"}]}, "final_response": {"parts": [{"text": "done"}]}}]}]}`,
			`unknown key "conversaton_notes"`, "", "ADK keeps unknown keys unread, so trajeval warns"},
		{"conversation scenario", "", `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c1", "conversation_scenario": {"starting_prompt": "hi", "conversation_plan": "ask"}}]}`,
			"", "needs a user simulator", "a scenario has no recorded conversation to compare with"},
		{"case rubrics without a rubric metric", "", caseRubrics, "rubrics have no effect here", "", "nothing would judge them"},
		{"case rubrics with a rubric metric", `{"criteria": {` + rubric + `}}`, caseRubrics, "", "", "the rubric metric judges them beside the criterion's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			set := tt.set
			if set == "" {
				set = evalset
			}
			files := map[string]string{"s.evalset.json": set}
			if tt.config != "" {
				files["test_config.json"] = tt.config
			}
			write(t, dir, files)
			s, errs := suite.LoadFile(filepath.Join(dir, "s.evalset.json"), suite.Options{Dialects: dialects.All()}, true)
			if tt.err != "" {
				if len(errs) == 0 || !strings.Contains(errs[0].Error(), tt.err) {
					t.Fatalf("errors %v, want %q (%s)", errs, tt.err, tt.reason)
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
