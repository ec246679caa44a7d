package trace

import "github.com/trajeval/trajeval/internal/format/agentv"

func init() { register(50, agentv.Format) }
