package settings

import (
	"strconv"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

// Minimums reads {tool: n} with n a whole number ≥ 0. A minimum of 0
// always holds: it is accepted, as AgentV accepts it, counts as met, and
// is reported to env as a warning, since it checks nothing.
func Minimums(n *config.Node, env *spec.Env) ([]trajectory.Minimum, error) {
	entries, err := n.MapEntries()
	if err != nil {
		return nil, err
	}
	var out []trajectory.Minimum
	for _, e := range entries {
		v, err := e.Value.Int()
		if err != nil {
			return nil, err
		}
		switch {
		case v < 0:
			return nil, e.Value.Errorf("minimum for %s must be at least 0, got %s", e.Key, strconv.FormatInt(v, 10))
		case v == 0:
			env.Warnf(e.Value, "minimum 0 for %s always holds: it checks nothing (to require the tool, use a minimum of 1)", e.Key)
		}
		out = append(out, trajectory.Minimum{Tool: e.Key, N: int(v)})
	}
	return out, nil
}
