package builtin

import (
	"errors"
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/score"
)

// dokimosModes translate Dokimos's match modes: strict is exact scored
// binary, superset any_order scored binary, precision and recall
// any_order scored so. Their arguments default to exact, as in Dokimos.
var dokimosModes = map[string]struct {
	mode  trajectory.Mode
	score score.Normalisation
}{
	"strict":    {trajectory.Exact, score.Binary},
	"superset":  {trajectory.AnyOrder, score.Binary},
	"precision": {trajectory.AnyOrder, score.Precision},
	"recall":    {trajectory.AnyOrder, score.Recall},
}

// trajectorySettings are tool_trajectory's keys in a suite file.
type trajectorySettings struct {
	Mode            string                  `config:"mode" enum:"any_order,in_order,exact,subset,strict,superset,precision,recall"`
	Score           *config.Node            `config:"score"`
	ArgsMatch       *settings.ArgsRule      `config:"args_match"`
	Trim            bool                    `config:"trim"`
	CaseInsensitive bool                    `config:"case_insensitive"`
	Expected        *settings.CallsOrGroups `config:"expected"`
	Minimums        *config.Node            `config:"minimums"`
}

var trajectorySpec = spec.Spec{
	Type:      "tool_trajectory",
	Keys:      config.Keys(reflect.TypeFor[trajectorySettings]()),
	Threshold: 1,
	Build:     buildTrajectory,
}

func buildTrajectory(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	s := trajectorySettings{Mode: string(trajectory.AnyOrder)}
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	o := trajectory.Options{Mode: trajectory.Mode(s.Mode), Score: score.Recall}
	dokimos, isDokimos := dokimosModes[s.Mode]
	if isDokimos {
		o.Mode, o.Score = dokimos.mode, dokimos.score
		o.ArgsMatch.Mode = trajeval.ArgsExact
	}
	if s.Score != nil {
		sc, err := s.Score.Enum(score.Normalisations...)
		if err != nil {
			return nil, err
		}
		if isDokimos && score.Normalisation(sc) != o.Score {
			return nil, s.Score.Errorf("mode %s already scores %s", s.Mode, o.Score).With("use mode %s with score: %s instead", o.Mode, sc)
		}
		o.Score = score.Normalisation(sc)
	}
	if s.ArgsMatch != nil {
		o.ArgsMatch = s.ArgsMatch.ArgsMatch
	}
	o.Strings = argmatch.Options{Trim: s.Trim, CaseInsensitive: s.CaseInsensitive}
	var exp *config.Node
	var callNodes []*config.Node // each expected call's node, in document order
	if s.Expected != nil {
		exp, callNodes = s.Expected.Node, s.Expected.Calls
		if g := s.Expected.Group; g != nil {
			if o.Mode != trajectory.InOrder && o.Mode != trajectory.Exact {
				return nil, g.Errorf("groups in expected are only scored in modes in_order and exact, not %s", s.Mode).With("use mode: in_order; a list inside one any_order group is then matched in any order")
			}
			o.Groups = s.Expected.Entries
		} else {
			for _, e := range s.Expected.Entries {
				o.Expected = append(o.Expected, e.Call)
			}
		}
	}
	if am := n.Get("args_match"); am != nil && o.ArgsMatch.Mode == trajeval.ArgsPaths && o.Groups == nil {
		// A path no expected call has would compare nothing anywhere.
		for i, p := range o.ArgsMatch.Paths {
			found, checked := false, false
			for _, c := range o.Expected {
				if c.Args != nil && c.ArgsMatch.Mode == "" {
					checked = true
					found = found || settings.HasPath(c.Args, p)
				}
			}
			if checked && !found {
				return nil, am.Items[i].Errorf("args_match path %s is in no expected call's args, so it would compare nothing", p).
					With("name a path under some call's args, or add the value to the calls' args")
			}
		}
	}
	mins := s.Minimums
	if mins != nil {
		if o.Mode != trajectory.AnyOrder {
			return nil, mins.Errorf("minimums only count in any_order mode, not %s", o.Mode).With("use mode: any_order, or list the calls under expected")
		}
		var err error
		if o.Minimums, err = settings.Minimums(mins, env); err != nil {
			return nil, err
		}
	}
	if exp == nil && (mins == nil || o.Mode != trajectory.AnyOrder) {
		need := "expected"
		if o.Mode == trajectory.AnyOrder {
			need = "expected or minimums"
		}
		return nil, n.Errorf("mode %s needs %s", o.Mode, need).With("add expected: [{tool: NAME}, ...]")
	}
	if o.Mode == trajectory.Subset {
		for i, c := range o.Expected {
			if c.MaxDurationMS != nil {
				return nil, callNodes[i].Errorf("max_duration_ms is not checked in subset mode").With("use in_order, exact or any_order for latency checks")
			}
		}
	}
	e, err := trajectory.New(o)
	if err != nil {
		var oe *trajectory.OptionError
		if ge := (*trajectory.GroupError)(nil); errors.As(err, &ge) && s.Expected != nil {
			return nil, s.Expected.At(ge.Path).Errorf("%v", ge.Err)
		}
		if errors.As(err, &oe) {
			at := n
			switch {
			case oe.Call >= 0 && oe.Call < len(callNodes):
				at = callNodes[oe.Call]
			case oe.Minimum >= 0 && mins != nil:
				at = mins.Entries[oe.Minimum].Value
			}
			return nil, at.Errorf("%v", oe.Err)
		}
		return nil, n.Errorf("%v", err)
	}
	return e, nil
}
