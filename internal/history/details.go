package history

import "github.com/trajeval/trajeval"

// appendDetails appends the JSON array of ds (null for a nil element) to b,
// byte for byte as json.Marshal writes it, without reflection: the
// history writes the details of every failing case. On an error b comes
// back as it was given.
func appendDetails(b []byte, ds []*trajeval.Details) ([]byte, error) {
	out := append(b, '[')
	for i, d := range ds {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = trajeval.AppendDetailsJSON(out, d, true); err != nil {
			return b, err
		}
	}
	return append(out, ']'), nil
}
