package canonical

import (
	"fmt"
	"reflect"

	"github.com/trajeval/trajeval"
)

// FastAgrees reports whether the fast path read every trajectory of data,
// and if it did, whether the parser reads the same trajectories (else how
// they differ).
func FastAgrees(data []byte) (read bool, diff string) {
	var fastOut, slowOut []*trajeval.Trajectory
	_, ok, _ := (&fast{}).values(data, func(t *trajeval.Trajectory) error {
		fastOut = append(fastOut, t)
		return nil
	})
	if !ok {
		return false, ""
	}
	in := trajeval.Input{Name: "fast.jsonl"}
	err := newParser(in, data, 1).values(func(t *trajeval.Trajectory) error {
		slowOut = append(slowOut, t)
		return nil
	})
	if err != nil {
		return true, "the parser fails: " + err.Error()
	}
	if !reflect.DeepEqual(fastOut, slowOut) {
		return true, fmt.Sprintf("fast %s, parser %s", dump(fastOut), dump(slowOut))
	}
	return true, ""
}

func dump(ts []*trajeval.Trajectory) string {
	s := ""
	for _, t := range ts {
		s += fmt.Sprintf("%+v; ", *t)
	}
	return s
}
