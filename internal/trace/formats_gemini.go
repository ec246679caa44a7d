package trace

import "github.com/trajeval/trajeval/internal/format/gemini"

func init() { register(75, gemini.Format) }
