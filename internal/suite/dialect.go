package suite

import (
	"github.com/trajeval/trajeval/internal/config"
)

// A Dialect reads one kind of suite file.
type Dialect struct {
	Name string
	// Claims reports whether the parsed file is this dialect's.
	Claims func(path string, root *config.Node) bool
	// Load builds the suite. It returns every configuration error it finds.
	Load func(path string, root *config.Node, opts Options) (*Suite, []error)
}

var dialects []Dialect

// RegisterDialect adds a dialect; dialects registered first are asked
// first, and AgentV's YAML, which claims everything, is asked last.
func RegisterDialect(d Dialect) { dialects = append(dialects, d) }
