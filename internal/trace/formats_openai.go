package trace

import "github.com/trajeval/trajeval/internal/format/openai"

func init() {
	register(34, openai.Agents)
	register(36, openai.Responses)
	register(40, openai.Chat)
}
