package suite

import "github.com/trajeval/trajeval/internal/config"

// LoadYAML loads an AgentV suite held in memory, as LoadFile would load it
// from path (which names it in errors), without looking for a traces file
// or a target beside it: a suite made by a program, checked before it is
// written.
func LoadYAML(path string, data []byte, opts Options) (*Suite, []error) {
	root, err := config.Parse(path, data)
	if err != nil {
		return nil, []error{err}
	}
	s, errs := loadAgentV(path, root, opts)
	if s != nil {
		s.Dialect = "agentv"
	}
	return s, errs
}

// openBeside reports whether a YAML file found in a folder is a suite with
// no cases that has traces to score: execution.evaluators and no cases,
// with a traces: key or a traces file beside it (see sidecar). Such a
// suite is found in a folder as a suite with cases is; one without traces
// is not (a serve policy, say), since it would have nothing to score.
func openBeside(path string, root *config.Node) bool {
	if root.Kind != config.Map {
		return false
	}
	ex := root.Get("execution")
	if ex == nil || ex.Kind != config.Map || ex.Get("evaluators") == nil {
		return false
	}
	return root.Get("traces") != nil || sidecar(path) != ""
}
