package trace

import (
	"context"
	"errors"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
)

// readForced reads in with f, the format --from named, and says so when
// the file does not look like f (the rules are in the package
// documentation).
func readForced(ctx context.Context, f trajeval.Format, in trajeval.Input, head []byte, yield func(*trajeval.Trajectory) error) error {
	// Both looks at head come first: head is the reader's buffer, which
	// reading overwrites.
	h := msglog.NewHead(head)
	why := sniffHead(f, h)
	other, _ := detect(in.Name, h)
	if other != nil && other.Name() == f.Name() {
		other = nil
	}
	flag := "--from " + f.Name()
	switch {
	case why == nil && other == nil:
		return f.Read(ctx, in, yield)
	case why == nil:
		found := false
		err := f.Read(ctx, in, func(t *trajeval.Trajectory) error {
			found = found || len(t.Steps) > 0
			return yield(t)
		})
		if err == nil && !found {
			in.Warn(trajeval.Warning{File: in.Name, Msg: fmt.Sprintf("%s: read as %s, this file holds no tool calls; detection would read it as %s", flag, f.Name(), other.Name())})
		}
		return err
	case other == nil:
		in.Warn(trajeval.Warning{File: in.Name, Msg: fmt.Sprintf("%s: %s does not recognise this file (%v), and no other format does; read as %s, as asked", flag, f.Name(), why, f.Name())})
		return f.Read(ctx, in, yield)
	}
	// Another format claims the file. Trajectories without steps are held
	// back until one with a step shows that f finds calls in it: a file
	// that gives none is an error, with nothing passed on before it.
	var held []*trajeval.Trajectory
	found := false
	var yieldErr error
	pass := func(t *trajeval.Trajectory) error {
		yieldErr = yield(t)
		return yieldErr
	}
	err := f.Read(ctx, in, func(t *trajeval.Trajectory) error {
		if found {
			return pass(t)
		}
		if len(t.Steps) == 0 {
			c := *t
			held = append(held, &c)
			return nil
		}
		found = true
		in.Warn(trajeval.Warning{File: in.Name, Msg: fmt.Sprintf("%s: this file looks like %s, not %s (%s says: %v); read as %s, as asked", flag, other.Name(), f.Name(), f.Name(), why, f.Name())})
		for _, h := range held {
			if err := pass(h); err != nil {
				return err
			}
		}
		held = nil
		return pass(t)
	})
	hint := fmt.Sprintf("drop --from, or use --from %s", other.Name())
	var te *trajeval.TraceError
	switch {
	case err != nil && err == yieldErr:
		return err
	case err != nil && errors.As(err, &te):
		c := *te
		c.Msg = fmt.Sprintf("%s: %s; this file looks like %s", flag, c.Msg, other.Name())
		c.Hint = hint
		return &c
	case err != nil:
		return err
	case !found:
		return &trajeval.TraceError{
			File: in.Name,
			Msg:  fmt.Sprintf("%s: read as %s, this file holds no tool calls, and it looks like %s; %s says: %v", flag, f.Name(), other.Name(), f.Name(), why),
			Hint: hint,
			Err:  trajeval.ErrUnknownFormat,
		}
	}
	return nil
}
