// Package all registers the suite dialects other than AgentV's (ADK eval
// sets, UiPath evaluation sets): import it for its side effects. Evaluator
// types need no import: package builtin lists them.
package all
