package suite

import (
	"github.com/trajeval/trajeval/internal/config"
)

// A Dialect reads one kind of suite file. The loader is given the
// dialects to ask in [Options.Dialects] (package dialects lists the
// built-in ones); no dialect registers itself.
type Dialect struct {
	Name string
	// Claims reports whether the parsed file is this dialect's.
	Claims func(path string, root *config.Node) bool
	// Load builds the suite. It returns every configuration error it finds.
	Load func(path string, root *config.Node, opts Options) (*Suite, []error)
	// Sniff, when set, claims a file by its first bytes before it is
	// parsed, for a dialect whose files are not one YAML or JSON document
	// (JSON Lines); LoadData then reads it instead of Load. A folder's
	// .json and .jsonl files are suites when some dialect sniffs them.
	Sniff    func(path string, head []byte) bool
	LoadData func(path string, data []byte, opts Options) (*Suite, []error)
}

// AgentV is AgentV's YAML, the dialect the loader asks last, which claims
// every file no other dialect does. A dialect that extends it (the policy
// of trajeval serve) reads its own keys and hands the rest to its Load.
var AgentV = Dialect{Name: "agentv", Claims: func(_ string, root *config.Node) bool { return agentvClaims(root) }, Load: loadAgentV}
