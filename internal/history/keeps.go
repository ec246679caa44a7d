package history

// KeepsFailing reports whether a case that did not pass, recorded after
// the call, may still keep its trajectory and details:
//  1. true with Run.KeepPassing, and with Run.KeepFailing 0;
//  2. false once Run.KeepFailing such cases have kept theirs, and from
//     then on.
//
// Unlike Record it may be called from any goroutine: a run that scores
// cases ahead of Record asks it once a case did not pass, and when it is
// false gives the case's trajectory back at once, as a passing case's,
// not through Record (run.Options.KeepsFailing).
func (r *Recorder) KeepsFailing() bool { return !r.full.Load() }
