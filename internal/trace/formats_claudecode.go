package trace

import "github.com/trajeval/trajeval/internal/format/claudecode"

func init() { register(70, claudecode.Format) }
