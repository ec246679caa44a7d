// Package trajeval holds trajeval's domain model: the canonical trajectory,
// expected calls, results, the Format and Evaluator interfaces and the
// errors every layer shares.
//
// It is internal so that the readers and evaluators can share the model
// while the public package github.com/trajeval/trajeval, which calls them,
// re-exports it: every type here is also a type of the public package
// (aliases), documented there for users.
package trajeval
