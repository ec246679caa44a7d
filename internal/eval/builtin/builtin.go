// Package builtin is the list of built-in evaluator types, in one place,
// and the translation of their suite-file settings into the evaluator
// packages' Go values.
//
// The evaluator packages (trajectory, metrics, composite, judge, code,
// uipath, dokimos, adk, vertex, deepeval, ragas) build evaluators from
// Go values and import nothing of suite files; each type here is a
// spec.Spec whose builder
// reads the type's keys from the positioned configuration tree (with
// config.Decode where the keys map onto a struct), checks them with their
// places, and calls the package's constructor (judged evaluators get
// their judge from spec.Env.Judge, as a judge.Handle). Types registered
// by programs (see [Register]) follow the built-in ones.
package builtin

import (
	"fmt"
	"sync"

	"github.com/trajeval/trajeval/internal/eval/spec"
)

// Specs returns the built-in evaluator types: AgentV's core types first,
// then the judges and code graders, then Dokimos's, UiPath's and ADK's,
// τ²-bench's and BFCL's, Vertex AI's trajectory metrics, DeepEval's and
// Ragas's.
func Specs() []spec.Spec { return document(specs()) }

// specs returns the built-in evaluator types as Specs does, without the
// documentation of the types docs.go documents (their Summary, Settings
// and Example), which building evaluators never reads.
func specs() []spec.Spec {
	var out []spec.Spec
	out = append(out, trajectorySpec)
	out = append(out, metricsSpec)
	out = append(out, compositeSpec)
	out = append(out, rulesSpec)
	out = append(out, llmJudgeSpec)
	out = append(out, codeSpec)
	out = append(out, groundingSpec)
	out = append(out, dokimosSpecs()...)
	out = append(out, reliabilitySpecs()...)
	out = append(out, dokimosJudgedSpecs()...)
	out = append(out, uipathSpecs()...)
	out = append(out, uipathJudgeSpecs()...)
	out = append(out, adkSpecs()...)
	out = append(out, tau2Specs()...)
	out = append(out, bfclSpec)
	out = append(out, vertexSpecs()...)
	out = append(out, peerSpecs()...)
	return out
}

var (
	mu         sync.Mutex
	custom     []spec.Spec
	cached     *spec.Registry
	documented *spec.Registry
)

// Types returns the registry of the built-in types and those registered
// by programs, as the suite loader builds evaluators from them: the
// built-in types without their documentation (see [Documented]), which
// took 1.2 M instructions and 2,600 allocations of every eval's start.
func Types() *spec.Registry { return registry(&cached, specs) }

// Documented returns the registry Types does, with every built-in type's
// documentation (what `trajeval evaluators` shows).
func Documented() *spec.Registry { return registry(&documented, Specs) }

// registry returns *r, made first of the built-in types builtins returns
// and the registered types.
func registry(r **spec.Registry, builtins func() []spec.Spec) *spec.Registry {
	mu.Lock()
	defer mu.Unlock()
	if *r == nil {
		reg, err := spec.NewRegistry(append(builtins(), custom...)...)
		if err != nil {
			// Unreachable: the built-in names are distinct (a test checks
			// it) and Register refuses a taken one. Were it reached, every
			// type would be unknown, a configuration error, rather than a
			// panic.
			reg, _ = spec.NewRegistry()
		}
		*r = reg
	}
	return *r
}

// Register adds an evaluator type defined by a program. A name taken by
// a built-in or registered type, in any spelling, is an error.
func Register(s spec.Spec) error {
	if s.Type == "" {
		return fmt.Errorf("an evaluator type needs a name")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, err := spec.NewRegistry(append(append(specs(), custom...), s)...); err != nil {
		return err
	}
	custom = append(custom, s)
	cached, documented = nil, nil
	return nil
}
