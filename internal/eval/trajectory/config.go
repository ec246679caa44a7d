package trajectory

import (
	"strconv"

	"github.com/trajeval/trajeval/internal/config"
)

// ParseMinimums reads {tool: n} with n a whole number ≥ 1.
func ParseMinimums(n *config.Node) ([]Minimum, error) {
	entries, err := n.MapEntries()
	if err != nil {
		return nil, err
	}
	var out []Minimum
	for _, e := range entries {
		v, err := e.Value.Int()
		if err != nil {
			return nil, err
		}
		if v < 1 {
			return nil, e.Value.Errorf("minimum for %s must be at least 1, got %s", e.Key, strconv.FormatInt(v, 10))
		}
		out = append(out, Minimum{Tool: e.Key, N: int(v)})
	}
	return out, nil
}
