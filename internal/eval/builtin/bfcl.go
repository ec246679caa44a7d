package builtin

import (
	"errors"
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/bfcl"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// bfclSettings are bfcl_ast's keys: the Berkeley Function Calling
// Leaderboard's entry (function documents and possible answer), read into
// package bfcl's Options.
type bfclSettings struct {
	Functions       *config.Node `config:"functions,required"`
	GroundTruth     *config.Node `config:"ground_truth,required"`
	Category        *string      `config:"category"`
	Matching        *string      `config:"matching"`
	UnderscoreToDot *bool        `config:"underscore_to_dot"`
}

var bfclSpec = spec.Spec{
	Type:      "bfcl_ast",
	Keys:      config.Keys(reflect.TypeFor[bfclSettings]()),
	Threshold: 1,
	Build:     buildBFCL,
}

func buildBFCL(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	var s bfclSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	o := bfcl.Options{UnderscoreToDot: isTrue(s.UnderscoreToDot)}
	var err error
	if o.Functions, err = bfcl.ParseFunctions(s.Functions.Value()); err != nil {
		return nil, s.Functions.Errorf("%s", err).With("give the question's function documents: [{name, parameters: {properties, required}}]")
	}
	if o.GroundTruth, err = bfcl.ParseGroundTruth(s.GroundTruth.Value()); err != nil {
		return nil, s.GroundTruth.Errorf("%s", err).With(`e.g. [{get_weather: {city: ["Paris"], unit: ["celsius", ""]}}]`)
	}
	switch {
	case s.Category != nil:
		o.Category = *s.Category
	default:
		cat, ok := bfcl.Category(env.Case.ID)
		if !ok {
			return nil, n.Errorf("no category, and the case id %q is not a BFCL id", env.Case.ID).With("give category: simple, multiple, parallel or parallel_multiple, or name the case like simple_0")
		}
		o.Category = cat
	}
	if s.Matching != nil {
		if o.Matching, err = bfcl.ParseMatching(*s.Matching); err != nil {
			return nil, n.Get("matching").Errorf("%s", err).With("official pairs parallel calls first-fit as BFCL does; optimal by a maximum matching")
		}
	}
	e, err := bfcl.New(o)
	var oe *bfcl.OptionError
	if errors.As(err, &oe) {
		at := n
		if v := n.Get(oe.Key); v != nil {
			at = v
		}
		return nil, at.Errorf("%s", oe.Msg)
	}
	return e, err
}
