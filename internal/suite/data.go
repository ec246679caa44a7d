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
