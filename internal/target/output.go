package target

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// DefaultMaxOutput bounds what a command may write to standard output, to
// standard error, and to {OUTPUT_FILE}, each, when its target sets no
// max_output: a trace larger than this is a runaway agent, not a trace.
const DefaultMaxOutput int64 = 256 << 20

// ErrTooMuchOutput is wrapped by the error of a run whose command wrote
// more than its cap to a stream.
var ErrTooMuchOutput = errors.New("target wrote too much")

// An OutputError says which stream of a command went over its cap.
type OutputError struct {
	Stream string // "standard output", "standard error" or "{OUTPUT_FILE}"
	Limit  int64  // the cap, in bytes
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("%v: its %s went over the cap of %s (max_output, --max-output); the command and every process it started were killed",
		ErrTooMuchOutput, e.Stream, FormatSize(e.Limit))
}

// Unwrap returns ErrTooMuchOutput.
func (e *OutputError) Unwrap() error { return ErrTooMuchOutput }

// FormatSize writes n bytes the way a person sets a cap: 256 MiB, 1.5 KiB,
// 100 B.
func FormatSize(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d B", n)
	}
	s := strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
	return s + " " + units[u]
}

// drainTo copies r to w until r ends, keeping at most limit bytes; the
// bytes past the limit are read and dropped, so that the command never
// blocks on a full pipe. It returns how many bytes r gave in all, and the
// first error of w. over is closed, once, when the total passes limit.
func drainTo(w io.Writer, r io.Reader, limit int64, over chan<- struct{}) (int64, error) {
	buf := make([]byte, 32<<10)
	var total int64
	var werr error
	for {
		n, err := r.Read(buf)
		if n > 0 {
			keep := min(int64(n), max(limit-total, 0))
			if keep > 0 && werr == nil {
				_, werr = w.Write(buf[:keep])
			}
			if total <= limit && total+int64(n) > limit {
				close(over)
			}
			total += int64(n)
		}
		if err != nil {
			return total, werr
		}
	}
}

// A headTail keeps the first and last bytes written to it: the standard
// error of a command is only quoted in messages, so it is never held
// whole, whatever the command writes.
type headTail struct {
	head  []byte
	tail  []byte // a ring of cap tailBytes once full
	next  int    // where the ring writes next
	total int64
}

// The bytes of standard error kept: its head, and its tail.
const (
	headKeep = 1 << 10
	tailKeep = 4 << 10
)

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += int64(n)
	if len(h.head) < headKeep {
		k := min(headKeep-len(h.head), len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= tailKeep {
		h.tail = append(h.tail[:0], p[len(p)-tailKeep:]...)
		h.next = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(h.tail) < tailKeep {
			k := min(tailKeep-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(h.tail[h.next:], p)
		h.next = (h.next + k) % tailKeep
		p = p[k:]
	}
	return n, nil
}

// quote returns what an error quotes of the stream: its last lines, and
// its first lines when the stream was longer than what was kept of it.
func (h *headTail) quote() (first, last string) {
	tail := append(append([]byte(nil), h.tail[h.next:]...), h.tail[:h.next]...)
	if h.total <= int64(len(h.head)+len(tail)) {
		return "", lastLines(string(h.head) + string(tail))
	}
	return firstLines(string(h.head)), lastLines(string(tail))
}

// The lines of standard error an error quotes.
const (
	headLines = 5
	tailLines = 10
	tailBytes = 2000
)

// lastLines returns the last lines of s, at most tailLines lines and
// about tailBytes bytes.
func lastLines(s string) string {
	s = strings.TrimRight(s, "\n\r\t ")
	if len(s) > tailBytes {
		s = "…" + s[len(s)-tailBytes:]
	}
	lines := strings.Split(s, "\n")
	if len(lines) > tailLines {
		lines = append([]string{"…"}, lines[len(lines)-tailLines:]...)
	}
	return strings.Join(lines, "\n")
}

// firstLines returns the first headLines lines of s, whole lines only
// unless the first is longer than s.
func firstLines(s string) string {
	lines := strings.SplitN(s, "\n", headLines+1)
	if len(lines) > headLines {
		lines = lines[:headLines]
	} else if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last may be cut
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n\r\t ")
}

// readCapped reads the file at path, refusing one larger than limit
// before reading it.
func readCapped(path string, limit int64, stream string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, &OutputError{Stream: stream, Limit: limit}
	}
	// Sized up front: the trace is held once, not grown by doubling. The
	// command is over, so the file no longer grows.
	data := make([]byte, st.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return data[:n], nil
}
