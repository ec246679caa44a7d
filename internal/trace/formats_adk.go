package trace

import "github.com/trajeval/trajeval/internal/format/adk"

func init() {
	register(60, adk.EvalSetFormat)
	register(61, adk.SessionFormat)
}
