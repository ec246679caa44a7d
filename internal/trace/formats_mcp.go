package trace

import "github.com/trajeval/trajeval/internal/format/mcp"

func init() { register(80, mcp.Format) }
