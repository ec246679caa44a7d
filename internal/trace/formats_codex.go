package trace

import "github.com/trajeval/trajeval/internal/format/codex"

func init() { register(65, codex.Format) }
