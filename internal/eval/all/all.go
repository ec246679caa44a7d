// Package all registers every evaluator type and suite dialect: import it
// for its side effects.
package all
