package trace

import "github.com/trajeval/trajeval/internal/format/anthropic"

func init() { register(38, anthropic.Format) }
