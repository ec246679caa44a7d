package trace

import "github.com/trajeval/trajeval/internal/format/langchain"

func init() {
	register(30, langchain.Runs)
	register(32, langchain.Messages)
}
