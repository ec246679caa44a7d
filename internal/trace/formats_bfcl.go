package trace

import "github.com/trajeval/trajeval/internal/format/bfcl"

func init() { register(85, bfcl.Format) }
