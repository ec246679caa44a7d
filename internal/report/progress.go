package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/plural"
)

// Progress tells a person watching a long run how far it is, on standard
// error:
//  1. on a terminal, one line redrawn in place at most ten times a second:
//     a bar, the cases done (of Total when known), how many passed, failed
//     and could not be scored so far, the rate and the time left; it is
//     erased when the run ends, and while a case's report is written (see
//     [Progress.Wrap]) so that the two never mix;
//  2. anywhere else (a CI log), a plain line every Every (10 seconds by
//     default): a run shorter than that prints nothing, a long one a
//     handful of lines, never one per case.
//
// Progress never fails a run: errors writing to W are ignored. On a
// terminal, its control sequences go to the writer under an
// [escape.Writer], which would show them escaped.
type Progress struct {
	W        io.Writer
	Total    int  // cases expected; 0 when unknown (no bar, no time left)
	Terminal bool // W is a terminal: redraw one line
	Every    time.Duration
	Now      func() time.Time // the clock; time.Now when nil

	start, last                  time.Time
	done, passed, failed, errors int
	shown                        bool // a line is drawn on the terminal
}

// redraw is how often the terminal line may change.
const redraw = 100 * time.Millisecond

func (p *Progress) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Case counts r and updates the line when it is time.
func (p *Progress) Case(r trajeval.CaseResult) error {
	p.count(r)
	p.update(false)
	return nil
}

func (p *Progress) count(r trajeval.CaseResult) {
	if p.start.IsZero() {
		p.start = p.now()
		p.last = p.start
	}
	p.done++
	switch r.Status {
	case trajeval.StatusPass:
		p.passed++
	case trajeval.StatusFail:
		p.failed++
	default:
		p.errors++
	}
}

// update writes the line when it is due, or now if force.
func (p *Progress) update(force bool) {
	now := p.now()
	every := p.Every
	if every <= 0 {
		every = 10 * time.Second
	}
	if p.Terminal {
		every = redraw
	}
	if !force && now.Sub(p.last) < every && !(p.Terminal && !p.shown && p.done == 1) {
		return
	}
	p.last = now
	if p.Terminal {
		fmt.Fprintf(escape.Raw(p.W), "\r\x1b[K%s", p.line(now, true))
		p.shown = true
	} else {
		fmt.Fprintf(p.W, "progress: %s\n", p.line(now, false))
	}
}

// Close erases the terminal line: the report has the totals.
func (p *Progress) Close(Summary) error {
	p.Clear()
	return nil
}

// Clear erases the terminal line, if one is drawn, before something else
// is written to W (a warning, say); the next case draws it again. A nil
// Progress does nothing.
func (p *Progress) Clear() {
	if p != nil && p.shown {
		io.WriteString(escape.Raw(p.W), "\r\x1b[K")
		p.shown = false
	}
}

// line renders the state, e.g. "[=====>    ] 412/1000 41%  380 passed,
// 30 failed, 2 errors  52.1/s  11s left".
func (p *Progress) line(now time.Time, bar bool) string {
	var b strings.Builder
	if p.Total > 0 {
		frac := min(1, float64(p.done)/float64(p.Total))
		if bar {
			const width = 24
			full := int(frac * width)
			b.WriteString("[" + strings.Repeat("=", full))
			if full < width {
				b.WriteString(">" + strings.Repeat(" ", width-full-1))
			}
			b.WriteString("] ")
		}
		fmt.Fprintf(&b, "%d/%s (%d%%)", p.done, plural.Count(p.Total, "case", "cases"), int(frac*100))
	} else {
		b.WriteString(plural.Count(p.done, "case", "cases"))
	}
	fmt.Fprintf(&b, ", %d passed, %d failed", p.passed, p.failed)
	if p.errors > 0 {
		fmt.Fprintf(&b, ", %d could not be scored", p.errors)
	}
	// A rate over less than a second says little.
	if elapsed := now.Sub(p.start); elapsed >= time.Second {
		rate := float64(p.done) / elapsed.Seconds()
		fmt.Fprintf(&b, ", %.1f/s", rate)
		left := time.Duration(float64(p.Total-p.done) / rate * float64(time.Second))
		if p.Total > p.done && left >= time.Second {
			fmt.Fprintf(&b, ", about %s left", left.Round(time.Second))
		}
	}
	return b.String()
}

// Wrap returns a writer that sends each case to w and then to p, erasing
// the terminal line before w writes, so that a report on the same terminal
// is not written over the line.
func (p *Progress) Wrap(w Writer) Writer { return wrapped{w, p} }

type wrapped struct {
	w Writer
	p *Progress
}

func (x wrapped) Case(r trajeval.CaseResult) error {
	shown := x.p.shown
	x.p.Clear()
	if err := x.w.Case(r); err != nil {
		return err
	}
	x.p.count(r)
	x.p.update(shown) // put back at once the line the report made us erase
	return nil
}

func (x wrapped) Close(s Summary) error {
	x.p.Clear()
	return x.w.Close(s)
}
