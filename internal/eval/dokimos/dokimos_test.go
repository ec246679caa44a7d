package dokimos_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	_ "github.com/trajeval/trajeval/internal/eval/dokimos"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func tryBuild(yaml string) (*eval.Configured, error) {
	n, err := config.Parse("suite.yaml", []byte(yaml))
	if err != nil {
		return nil, err
	}
	return spec.Build(n, &spec.Env{Types: builtin.Types(), Dir: "testdata"})
}

func build(t testing.TB, yaml string) *eval.Configured {
	t.Helper()
	c, err := tryBuild(yaml)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return c
}

// traj reads calls as JSON: [{"name", "args", "result", "error"}].
func traj(t testing.TB, calls string) *trajeval.Trajectory {
	t.Helper()
	var raw []struct {
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"`
		Result json.RawMessage `json:"result"`
		Error  *bool           `json:"error"`
	}
	if err := json.Unmarshal([]byte(calls), &raw); err != nil {
		t.Fatal(err)
	}
	tr := &trajeval.Trajectory{}
	for _, r := range raw {
		tr.Steps = append(tr.Steps, trajeval.Step{Name: r.Name, Args: decode(t, r.Args), Result: decode(t, r.Result), Error: r.Error})
	}
	tr.Finish()
	return tr
}

func decode(t testing.TB, b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func score(t *testing.T, c *eval.Configured, tr *trajeval.Trajectory) trajeval.Result {
	t.Helper()
	r := c.Run(context.Background(), tr)
	if r.Status == trajeval.StatusError {
		t.Fatalf("error: %s", r.Error)
	}
	return r
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// seedTrace is seed 004's quick-start trace.
const seedTrace = `[{"name":"search_flights","args":{"origin":"JFK","destination":"CDG"}},{"name":"book_hotel","args":{"city":"Paris","nights":5}}]`

func TestToolCorrectness(t *testing.T) {
	tests := []struct {
		name, config, actual string
		score                float64
		reason               string
	}{
		{"seed quick start", "expected: [{tool: search_flights, args: {}}, {tool: book_hotel, args: {}}]", seedTrace, 1,
			"seed 004: NAMES_ONLY (default) ignores arguments"},
		{"names only sets", "expected: [a, b]", `[{"name":"a"},{"name":"a"},{"name":"c"}]`, 0.5,
			"sets {a,b} vs {a,c}: P = R = 1/2; repeats collapse"},
		{"names only both empty", "expected: []", `[]`, 1, "nothing expected, nothing called"},
		{"names only one empty", "expected: [a]", `[]`, 0, "nothing called"},
		{"names and order", "match: NAMES_AND_ORDER\nexpected: [a, b, c]", `[{"name":"a"},{"name":"c"},{"name":"b"},{"name":"d"}]`, 0.5,
			"LCS 2 over max(3, 4)"},
		{"names and order extras cost", "match: names_and_order\nexpected: [a, b]", `[{"name":"a"},{"name":"x"},{"name":"b"}]`, 2.0 / 3,
			"unlike UiPath's LCS, extra calls lower the score"},
		{"names and args exact default", "match: names_and_args\nexpected: [{tool: book_hotel, args: {city: Paris}}]", seedTrace, 0,
			"Dokimos's default matcher is EXACT: nights is an extra key"},
		{"names and args numbers by value", "match: names_and_args\nexpected: [{tool: book_hotel, args: {city: Paris, nights: 5.0}}]", seedTrace, 2.0 / 3,
			"5 = 5.0; F1 = 2·1/(1+2)"},
		{"names and args partial", "match: names_and_args\nargs_match: partial\nexpected: [{tool: book_hotel, args: {city: Paris}}, {tool: search_flights, args: {origin: JFK}}]", seedTrace, 1,
			"args_match overrides the default"},
		{"names and args optimal", "match: names_and_args\nargs_match: partial\nexpected: [{tool: read}, {tool: read, args: {path: b}}]",
			`[{"name":"read","args":{"path":"b"}},{"name":"read","args":{"path":"a"}}]`, 1,
			"Dokimos's greedy pairing scores 0.5 here; a perfect pairing exists"},
		{"per item args_match", "match: names_and_args\nexpected: [{tool: book_hotel, args: {city: Paris}, args_match: partial}]", seedTrace, 2.0 / 3,
			"an item's args_match wins over the evaluator's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := score(t, build(t, "type: tool_correctness\n"+tt.config+"\n"), traj(t, tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s)", r.Score, tt.score, tt.reason)
			}
		})
	}
}

const seedTools = `
tools:
  - name: search_flights
    description: Search for available flights
    parameters:
      type: object
      properties:
        origin: {type: string, description: Origin airport code}
        destination: {type: string, description: Destination airport code}
      required: [origin, destination]
  - name: book_hotel
    description: Book a hotel room
    inputSchema:
      type: object
      properties:
        city: {type: string}
        nights: {type: integer, minimum: 1}
        guests:
          type: object
          properties:
            adults: {type: integer}
            children: {type: array, items: {type: integer, maximum: 17}}
          required: [adults]
      required: [city, nights]
`

func TestToolCallValidity(t *testing.T) {
	tests := []struct {
		name, extra, actual string
		score               float64
		want                string // a message expected in the details
		reason              string
	}{
		{"seed quick start", "", seedTrace, 1, "", "seed 004: both calls match their schemas"},
		{"missing required", "", `[{"name":"search_flights","args":{"origin":"JFK"}}]`, 0, "missing property 'destination'", "required params must be present"},
		{"wrong type", "", `[{"name":"book_hotel","args":{"city":"Paris","nights":"5"}}]`, 0, "at /nights", "a string is not an integer"},
		{"integer as 5.0", "", `[{"name":"book_hotel","args":{"city":"Paris","nights":5.0}}]`, 1, "", "JSON Schema: 5.0 is an integer"},
		{"nested schema", "", `[{"name":"book_hotel","args":{"city":"Paris","nights":2,"guests":{"adults":2,"children":[4,19]}}}]`, 0, "at /guests/children/1", "nested schemas are validated (Dokimos checks the top level only)"},
		{"nested required", "", `[{"name":"book_hotel","args":{"city":"Paris","nights":2,"guests":{}}}]`, 0, "missing property 'adults'", "nested required"},
		{"unknown tool", "", `[{"name":"search_flight","args":{}}]`, 0, `unknown tool (did you mean "search_flights"?)`, "an undefined tool is invalid"},
		{"extra param allowed", "", `[{"name":"search_flights","args":{"origin":"JFK","destination":"CDG","class":"economy"}}]`, 1, "", "without strict extra params pass"},
		{"strict rejects extra", "strict: true", `[{"name":"search_flights","args":{"origin":"JFK","destination":"CDG","class":"economy"}}]`, 0, `unexpected parameter "class"`, "strict mode"},
		{"fraction", "", `[{"name":"search_flights","args":{"origin":"JFK","destination":"CDG"}},{"name":"nope"}]`, 0.5, "unknown tool", "valid / total"},
		{"empty", "", `[]`, 1, "", "no calls score 1"},
		{"no args object", "", `[{"name":"search_flights"}]`, 0, "missing properties", "no arguments validate as {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := score(t, build(t, "type: tool_call_validity\n"+tt.extra+seedTools), traj(t, tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s); checks %+v", r.Score, tt.score, tt.reason, r.Details.Checks)
			}
			if tt.want != "" {
				var b strings.Builder
				for _, c := range r.Details.Checks {
					b.WriteString(c.Message + "\n")
				}
				if !strings.Contains(b.String(), tt.want) {
					t.Errorf("details %s\nwant them to mention %q", b.String(), tt.want)
				}
			}
		})
	}
}

func TestToolsFile(t *testing.T) {
	r := score(t, build(t, "type: tool_call_validity\ntools_file: tools.yaml\n"), traj(t, seedTrace))
	if r.Score != 1 {
		t.Errorf("score = %v, want 1; %+v", r.Score, r.Details.Checks)
	}
	r = score(t, build(t, "type: toolCallValidity\ntoolsFile: tools.yaml\n"), traj(t, `[{"name":"book_hotel","args":{"city":"Paris","nights":0}}]`))
	if r.Score != 0 {
		t.Errorf("nights 0 against minimum 1: score = %v, want 0", r.Score)
	}
}

func TestToolError(t *testing.T) {
	tests := []struct {
		name, config, actual string
		score                float64
		reason               string
	}{
		{"seed result", "", `[{"name":"book_hotel","result":"{\"confirmation\": \"ABC123\"}"}]`, 1, "seed 004: a confirmation is a success"},
		{"null result", "", `[{"name":"a","result":null}]`, 0, "null result is a failure"},
		{"blank result", "", `[{"name":"a","result":"  "}]`, 0, "blank text is a failure"},
		{"blank allowed", "treat_blank_as_error: false", `[{"name":"a","result":""}]`, 1, "treat_blank_as_error: false"},
		{"error field", "", `[{"name":"a","result":{"error":"not found"}}]`, 0, "JSON object with an error field"},
		{"error field in text", "", `[{"name":"a","result":"{\"error\": {\"code\": 404}}"}]`, 0, "a result string holding a JSON object"},
		{"null error field", "", `[{"name":"a","result":{"error":null,"data":1}}]`, 1, "a null error field is no error"},
		{"nested error field", "", `[{"name":"a","result":{"data":{"error":"x"}}}]`, 1, "only the top-level field counts"},
		{"error flag", "", `[{"name":"a","result":"ok","error":true}]`, 0, "the step's error flag"},
		{"seed custom pattern", `pattern: "HTTP 500"`, `[{"name":"a","result":"upstream said HTTP 500"},{"name":"b","result":"fine"}]`, 0.5, "seed 004: errorDetector contains HTTP 500"},
		{"empty", "", `[]`, 1, "no calls score 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := score(t, build(t, "type: tool_error\n"+tt.config+"\n"), traj(t, tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s)", r.Score, tt.score, tt.reason)
			}
		})
	}
}

func TestToolEfficiency(t *testing.T) {
	tests := []struct {
		name, actual string
		score        float64
		loops        int
		reason       string
	}{
		{"seed no redundancy", seedTrace, 1, 0, "seed 004: distinct calls"},
		{"duplicate by value", `[{"name":"a","args":{"x":1,"y":"k"}},{"name":"b"},{"name":"a","args":{"y":"k","x":1.0}}]`, 2.0 / 3, 0, "same name, equal args by value and any key order"},
		{"different args", `[{"name":"a","args":{"x":1}},{"name":"a","args":{"x":2}}]`, 1, 0, "different arguments are not redundant"},
		{"loop", `[{"name":"poll"},{"name":"poll"},{"name":"poll"},{"name":"done"}]`, 0.5, 1, "three consecutive repeats: one loop"},
		{"no args vs empty", `[{"name":"a"},{"name":"a","args":{}}]`, 0.5, 1, "no arguments equal the empty object"},
		{"empty", `[]`, 1, 0, "no calls score 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := score(t, build(t, "type: tool_efficiency\n"), traj(t, tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s)", r.Score, tt.score, tt.reason)
			}
			if got := len(r.Details.Warnings); got != tt.loops {
				t.Errorf("loops reported = %d, want %d: %v", got, tt.loops, r.Details.Warnings)
			}
		})
	}
}

func TestReliability(t *testing.T) {
	tests := []struct {
		name, config string
		score        float64
		status       trajeval.Status
		reason       string
	}{
		{"seed tools names", "type: tool_name_reliability\ntools_file: tools.yaml", 1, trajeval.StatusPass, "search_flights and book_hotel pass all three rules"},
		{"bad names", "type: tool_name_reliability\ntools: [{name: SearchFlights}, {name: summarize_with_llm}, {name: a_b_c_d_e_f_g_h}]", 6.0 / 9,
			trajeval.StatusFail, "camelCase, implementation in the name, 8 segments"},
		{"blocklist", "type: tool_name_reliability\nblocklist: [_v2]\ntools: [{name: search_v2}]", 2.0 / 3, trajeval.StatusFail, "an extra blocklist entry"},
		{"seed tools descriptions", "type: tool_description_reliability\ntools_file: tools.yaml", 1, trajeval.StatusPass, "documented, typed, small"},
		{"undocumented params", "type: tool_description_reliability\ntools: [{name: f, parameters: {type: object, properties: {a: {type: string}, b: {description: B}}}}]", 0.5,
			trajeval.StatusFail, "a lacks a description, b a type"},
		{"too many params", "type: tool_description_reliability\nmax_input_args: 2\ntools: [{name: f, parameters: {type: object, properties: {a: {type: string, description: A}, b: {type: string, description: B}, c: {type: string, description: C}}, required: [a]}}]",
			0.75, trajeval.StatusFail, "3 > 2 parameters; 2 optional ≤ 3"},
		{"threshold 0.8", "type: tool_description_reliability\ntools: [{name: f, parameters: {type: object, properties: {a: {type: string, description: A}, b: {type: string, description: B}, c: {type: string, description: C}, d: {type: string, description: D}}}}]",
			0.75, trajeval.StatusFail, "4 optional > 3: 3 of 4 checks, under the 0.8 default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := score(t, build(t, tt.config+"\n"), traj(t, `[]`))
			if !near(r.Score, tt.score) || r.Status != tt.status {
				t.Errorf("score = %v %s, want %v %s (%s); checks %+v", r.Score, r.Status, tt.score, tt.status, tt.reason, r.Details.Checks)
			}
		})
	}
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"invalid schema in file", "type: tool_call_validity\ntools_file: bad-schema.json\n",
			`testdata/bad-schema.json:9:26: tools[0].parameters.properties.id.type: invalid JSON Schema for tool lookup`},
		{"invalid schema inline", "type: tool_call_validity\ntools: [{name: f, parameters: {type: object, minProperties: -1}}]\n",
			"suite.yaml:2:61: tools[0].parameters.minProperties: invalid JSON Schema for tool f"},
		{"remote ref refused", "type: tool_call_validity\ntools: [{name: f, parameters: {$ref: \"https://example.com/s.json\"}}]\n", "self-contained"},
		{"no tools", "type: tool_call_validity\nstrict: true\n", "no tool definitions"},
		{"missing file", "type: tool_call_validity\ntools_file: nope.json\n", "cannot read the tools file"},
		{"duplicate tool", "type: tool_call_validity\ntools: [{name: f}, {name: f}]\n", `tool "f" is defined twice`},
		{"unknown match", "type: tool_correctness\nmatch: names_and_arg\nexpected: [a]\n", `did you mean "names_and_args"?`},
		{"bad pattern", "type: tool_error\npattern: \"(\"\n", "invalid pattern"},
		{"misspelt tool key", "type: tool_call_validity\ntools: [{name: f, paramters: {}}]\n", `did you mean "parameters"?`},
		{"missing expected", "type: tool_correctness\n", "missing expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tryBuild(tt.yaml)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !errors.Is(err, trajeval.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func Example() {
	n, _ := config.Parse("suite.yaml", []byte(`
type: tool_correctness
match: names_and_args
args_match: partial
expected:
  - {tool: search_flights, args: {origin: JFK}}
  - {tool: book_hotel, args: {nights: 5.0}}
`))
	c, _ := spec.Build(n, &spec.Env{Types: builtin.Types()})
	t := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Name: "search_flights", Args: map[string]any{"origin": "JFK", "destination": "CDG"}},
		{Name: "book_hotel", Args: map[string]any{"city": "Paris", "nights": json.Number("5")}},
		{Name: "book_hotel", Args: map[string]any{"city": "Paris", "nights": json.Number("5")}},
	}}
	r := c.Run(context.Background(), t)
	fmt.Printf("%.1f %s extra step %d\n", r.Score, r.Status, r.Details.Extra[0].Step)
	// Output: 0.8 fail extra step 3
}
