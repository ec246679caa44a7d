package trace

import "github.com/trajeval/trajeval/internal/format/canonical"

// trajeval's own canonical form is tried first: its sniff claims only the
// exact canonical shape, and no other format may take what convert wrote.
func init() { register(5, canonical.Format) }
