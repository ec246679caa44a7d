package vertex_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/vertex"
)

var formats = []trajeval.Format{vertex.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, vertex.Format, 1, "not json\n")
	formattest.FailsAtLine(t, vertex.Format, 2, "id,predicted_trajectory\nr1,\"[]\n")
	formattest.FailsAtLine(t, vertex.Format, 3, "id,predicted_trajectory\nr1,[]\nr2,[],extra\n")
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"id":"x","steps":[]}`,
		`{"type":"thread.started","thread_id":"x"}`,
		`[{"tool_name":"a"}]`,
		`{"prompt":"hi","response":"hello"}`,
	}, vertex.Format)
}

func TestTrajectory(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string // "" when it reads
	}{
		{"list", []any{map[string]any{"tool_name": "a"}}, ""},
		{"text", `[{"tool_name": "a", "tool_input": {"x": 1}}]`, ""},
		{"empty", []any{}, ""},
		{"object", map[string]any{"tool_name": "a"}, "an object, not a list of calls"},
		{"bad text", `[{"tool_name": `, "text that is not a list of calls in JSON or Python syntax: line 1, column 16: expected a value"},
		{"python repr", `[{'tool_name': 'get_weather', 'tool_input': {'city': 'Paris', 'metric': True, 'days': None}}]`, ""},
		{"python input", []any{map[string]any{"tool_name": "a", "tool_input": "{'x': (1, 2)}"}}, ""},
		{"no name", []any{map[string]any{"tool_input": map[string]any{}}}, "call 1 has no tool_name"},
		{"input a list", []any{map[string]any{"tool_name": "a", "tool_input": []any{}}}, "tool_input is an array"},
		{"input text not an object", []any{map[string]any{"tool_name": "a", "tool_input": "x=1"}}, "tool_input is text that is not an object in JSON or Python syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, err := vertex.Trajectory(tt.in)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want the calls", err)
			case tt.want == "" && calls == nil:
				t.Errorf("nil calls: an empty trajectory must stay a list")
			case tt.want != "" && (err == nil || !contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
