package target_test

import (
	"bytes"
	"testing"

	"github.com/trajeval/trajeval/internal/target"
)

// FuzzHeadTail writes data to the keeper of standard error in chunks cut
// where cuts says, and checks that it kept the first and the last bytes,
// whatever the chunks.
func FuzzHeadTail(f *testing.F) {
	f.Add([]byte("boom\n"), []byte{1})
	f.Add(bytes.Repeat([]byte("0123456789abcdef"), 700), []byte{200, 3, 255, 17})
	f.Add(bytes.Repeat([]byte{'x'}, 9000), []byte{0, 0, 255})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var chunks [][]byte
		rest := data
		for _, c := range cuts {
			n := min(int(c)*32, len(rest))
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
		}
		chunks = append(chunks, rest)
		head, tail, total := target.HeadTail(chunks...)
		wantHead := data[:min(len(data), target.HeadKeep)]
		after := data[len(wantHead):]
		wantTail := after[max(0, len(after)-target.TailKeep):]
		if !bytes.Equal(head, wantHead) || !bytes.Equal(tail, wantTail) || total != int64(len(data)) {
			t.Errorf("kept head %d, tail %d bytes of %d; want the first %d and the last %d of %d",
				len(head), len(tail), total, len(wantHead), len(wantTail), len(data))
		}
	})
}
