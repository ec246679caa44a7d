package trace

import "github.com/trajeval/trajeval/internal/format/otlp"

func init() {
	register(10, otlp.JSON)
	register(12, otlp.Proto)
}
