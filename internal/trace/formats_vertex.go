package trace

import "github.com/trajeval/trajeval/internal/format/vertex"

// A Vertex dataset's rows may carry an id, so it goes before AgentV's
// JSON Lines with an id per line.
func init() { register(45, vertex.Format) }
