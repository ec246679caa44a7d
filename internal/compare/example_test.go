package compare_test

import (
	"os"

	"github.com/trajeval/trajeval/internal/compare"
)

func Example() {
	old, _ := compare.Parse("last.jsonl", []byte(`{"id":"checkout","status":"pass","score":1,"evaluators":[{"name":"flow","status":"pass","score":1}]}
{"id":"search","status":"fail","score":0.5,"evaluators":[]}
`))
	new, _ := compare.Parse("results.jsonl", []byte(`{"id":"checkout","status":"fail","score":0.5,"evaluators":[{"name":"flow","status":"fail","score":0.5}]}
{"id":"search","status":"pass","score":1,"evaluators":[]}
`))
	rep, err := compare.Compare(old, new, compare.Options{Tolerance: 0.05})
	if err != nil {
		panic(err)
	}
	compare.Write(os.Stdout, rep, "text")
	// Output:
	// compare last.jsonl (2 cases) → results.jsonl (2 cases), 2 in common, tolerance 0.05
	//
	// REGRESSED checkout  pass 1.00 → fail 0.50 (-0.50)
	//     pass → fail
	//   ✗ flow  pass 1.00 → fail 0.50
	// IMPROVED  search  fail 0.50 → pass 1.00 (+0.50)
	//     fail → pass
	//
	// 1 regressed (1 newly failing), 1 improved (1 newly passing)
	// regression: 1 case is worse than in last.jsonl
}
