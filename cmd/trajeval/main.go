// Command trajeval scores what AI agents do: which tools they call, in what
// order, with which arguments, how fast.
//
//	trajeval eval PATH... [--traces FILE] [--out FILE] [--format text|json|jsonl|junit|markdown|html] [--threshold X] [--workers N] [--quiet]
//	              [--target NAME] [--trials N] [--max-output BYTES] [--resume] [--dump-traces DIR] [--include-trace] [--lenient] [--filter PATTERN]...
//	              [--failed-only] [--color auto|always|never] [--db DB | --no-db] [--keep-failing N|all]
//	trajeval report RESULTS.jsonl... [--out FILE] [--format html|junit|markdown|...] [--failed-only] [--color WHEN]
//	trajeval validate PATH...
//	trajeval convert FILE... [--from FORMAT] [-q]
//	trajeval compare OLD NEW [--format text|markdown|json] [--tolerance X] [--confidence C]
//	trajeval serve POLICY.yaml [--http ADDR] [--grpc ADDR] [--out FILE] [--otlp-logs URL] [--grace D] [--idle D] [--token T]
//	trajeval runs [--suite NAME] [--since DATE] [--json] [--db DB]; trajeval runs prune [--keep N] [--before DATE | --older-than AGE]
//	trajeval show RUN [CASE] [--format text|json|jsonl|...] [--db DB]
//	trajeval view [--db DB] [--addr HOST:PORT] [--token T]
//	trajeval init [DIR] [--from TRACE]
//	trajeval evaluators [NAME] [--json]
//	trajeval formats [--json]
//	trajeval schema
//	trajeval version (or trajeval --version)
//
// Exit codes: 0 every case passed; 1 some case failed or could not be
// scored (compare: some case regressed); 2 the command or a file was
// wrong; 130 interrupted (Ctrl-C) before every case ran.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/history"
	// The executable's code mapped at once as the process starts, before
	// the larger packages' inits run it (see package prefault).
	_ "github.com/trajeval/trajeval/internal/prefault"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/suite"
)

func main() {
	// First: this program is also the supervisor of the agents it runs,
	// started again with other arguments.
	suite.SuperviseTargets()
	// No allocation is sampled for a profile unless --memprofile asks for
	// one (see execute): a sample walks its goroutine's stack, some 0.6 %
	// of a run's instructions at the runtime's rate of one in 512 KiB.
	// GODEBUG=memprofilerate still wins.
	if !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate = 0
	}
	// Scoring allocates many short-lived values and holds little: trading
	// some memory for fewer collections roughly halves the CPU time. The
	// soft limit brings the collector back when a reader must hold a lot
	// (the spans of a large OTLP file). GOGC and GOMEMLIMIT still win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	// The heap's first pages in huge pages: on a virtual machine a fault
	// a 4 KiB page was a third of a large run's CPU. eval's is sized by
	// its inputs (see evalHugeHeap).
	switch {
	case len(os.Args) > 1 && os.Args[1] == "eval":
		if n := evalHugeHeap(os.Args[2:]); n > 0 {
			reserveHugeHeap(n)
		}
	case !printsOnly(os.Args[1:]):
		reserveHugeHeap(hugeHeapBytes)
	}
	os.Exit(mainExit(os.Args[1:]))
}

// reserveHugeHeap makes a huge heap of n bytes (see hugeHeap) and frees
// it for the heap to reuse, by the rules:
//  1. No collection starts while it is made: its allocation would
//     otherwise start one (64 MiB from a heap of a megabyte or two), and
//     the collection before loading would be a second.
//  2. One collection, forced, frees it, and what the heap then allocated
//     is remembered in collectedAt: load leaves its own collection out
//     while the command's set-up allocates little more (rule 1 of load).
//     Each collection's sweep takes fresh blocks for its span sets: the
//     one left out was some 300 page faults of the peer set's 1,500.
//  3. With the collector off (GOGC=off) there is no collection: the huge
//     heap stays allocated, as its allocation started none before.
func reserveHugeHeap(n int) {
	pace := debug.SetGCPercent(-1)
	hugeHeap(n)
	if pace < 0 {
		return // GOGC=off: nothing is collected, as asked
	}
	runtime.GC()
	debug.SetGCPercent(pace)
	collectedAt = allocated()
}

// heapPadBytes is what hugeHeap holds below the huge heap, never
// touched, so that the huge heap starts on a huge page: a pace set by the
// live heap leaves it out.
var heapPadBytes uint64

// collectedAt is what the heap had allocated when reserveHugeHeap's
// collection ended; 0 when there was none.
var collectedAt uint64

// evalHugeHeap returns the bytes of huge heap for eval's arguments args:
// hugeHeapFor of the suites' paths and --traces, read by eval's own flags;
// hugeHeapBytes when the flags do not parse (eval then says why).
func evalHugeHeap(args []string) int {
	f := evalCmd().Flags()
	if err := f.Parse(args); err != nil {
		return hugeHeapBytes
	}
	traces, err := f.GetString("traces")
	if err != nil {
		return hugeHeapBytes
	}
	return hugeHeapFor(f.Args(), traces)
}

// smallInput is the size of inputs under which eval makes no huge heap.
const smallInput = 256 << 10

// hugeHeapFor returns the bytes of huge heap for an eval of the suites at
// paths on the trace file traces ("" when none is named), by the rules:
//  1. hugeHeapBytes when no traces file is named: the suites then name
//     their own, of any size, which only loading them finds.
//  2. hugeHeapBytes unless every path and traces is a regular file that
//     stat finds: a folder, standard input or a path that does not stat
//     may hold any amount.
//  3. None when those files hold fewer than smallInput bytes in all: such
//     a run's heap stays within a few megabytes, and the huge heap cost
//     it its metadata and the fresh huge pages its first megabytes land
//     in (about 150 faults of 1,100 on a one-case suite on one trace). A
//     small suite whose cases name large trace files of their own beside
//     --traces is still scored right, its heap's pages faulted in one at
//     a time.
//  4. Else hugeHeapBytes.
func hugeHeapFor(paths []string, traces string) int {
	if traces == "" {
		return hugeHeapBytes
	}
	var total int64
	for _, p := range append(paths[:len(paths):len(paths)], traces) {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return hugeHeapBytes
		}
		total += st.Size()
	}
	if total < smallInput {
		return 0
	}
	return hugeHeapBytes
}

// printsOnly reports whether args name, first, a command that prints what
// is built in (or help) and builds no heap worth huge pages: for them the
// huge heap's allocation and the collection it brings were a fifth of the
// page faults of `trajeval version`. Any other first argument (a flag
// before the command too) keeps the huge heap.
func printsOnly(args []string) bool {
	if len(args) == 0 {
		return true // the help
	}
	switch args[0] {
	case "version", "--version", "-v", "help", "--help", "-h", "evaluators", "formats", "schema":
		return true
	}
	return false
}

// hugeHeapBytes is how much of the heap main asks to be backed by huge
// pages: the collector's floor and more (see heapFloor). It covers the
// heap of 100,000 traces of 20 steps with --no-db; a run with the history
// outgrows it (128 MiB took a fifth of the faults left there off, and was
// not kept: it would raise the memory limit, which never goes under what
// the runtime maps, to 128 MiB).
const hugeHeapBytes = 64 << 20

// mainExit runs the command line args with the process's signals and
// streams, and returns the exit code.
//
// Ctrl-C: the first lets a command that can finish what is under way (eval
// running cases) do so, and stops it at once otherwise; a second stops at
// once. SIGTERM stops at once.
func mainExit(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &interrupt{stop: make(chan struct{})}
	ctx = context.WithValue(ctx, interruptKey{}, in)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		// SIGTERM (a CI job's timeout) stops at once, so that agents under
		// way are killed with their process groups rather than orphaned.
		if s := <-sig; s == os.Interrupt && in.drains.Load() {
			close(in.stop)
			fmt.Fprintln(os.Stderr, "trajeval: interrupted: finishing the cases under way (Ctrl-C again to stop at once)")
			<-sig
		}
		cancel()
	}()
	err := Run(ctx, args)
	return exitCode(err, os.Stderr)
}

// An interrupt is how the first Ctrl-C reaches a command: drains is set by
// a command that can finish what is under way, which then watches stop.
type interrupt struct {
	stop   chan struct{}
	drains atomic.Bool
}

type interruptKey struct{}

// stopOf returns the channel the first Ctrl-C closes, and says that the
// command will finish what is under way when it does; nil when ctx has no
// signal handling (tests).
func stopOf(ctx context.Context) <-chan struct{} {
	in, ok := ctx.Value(interruptKey{}).(*interrupt)
	if !ok {
		return nil
	}
	in.drains.Store(true)
	return in.stop
}

// errCasesFailed says the run worked and some case did not pass.
var errCasesFailed = errors.New("some cases did not pass")

// exitCode is the one place that turns an outcome into an exit code. The
// error is printed escaped: it may quote a trace (see package escape).
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errCasesFailed), errors.Is(err, errRegressed):
		return 1
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "trajeval:", escape.Text(err.Error()))
		return 130
	}
	fmt.Fprintln(stderr, "trajeval:", escape.Text(err.Error()))
	return 2
}

// load loads the suites at paths with opts. A GOGC the user set is left
// alone; otherwise the collector follows a heap goal from the collection
// before loading to the end of the run:
//  1. While the suites load, the goal is twice the live heap (GOGC 100
//     instead of the scoring's 400: parsing YAML allocates about a hundred
//     times the file's size in short-lived values), but not under
//     heapFloor: from start-up's heap of a megabyte or two, GOGC 100 alone
//     collects every few megabytes. The live heap is what a collection
//     before loading finds, with no collection when start-up allocated
//     at most smallStart since the last one (collectedAt, the huge
//     heap's, see reserveHugeHeap) or in all (no huge heap was made, see
//     hugeHeapFor): what that collection found live and what was
//     allocated since stand for it. On a one-case suite the collection
//     cost some 140 page faults of 900, most of them the collector's
//     first touch of its own tables.
//  2. The parse's garbage goes at once, so that the scoring's pace is set
//     by what the suites hold, not by what parsing them left behind; the
//     index of their cases the run will build is counted with them
//     (run.IndexBytes a case). A load that allocated at most smallLoad
//     is not followed by a collection: what its suites hold is estimated
//     (listedCaseBytes a case, at most what the load allocated), since a
//     collection that marks them would cost more than it tells: the
//     heap floor sets the goal of such a run's first collections.
//  3. While the cases are scored, the goal follows the live heap after
//     each collection: the scoring's own headroom (its pace, applied to
//     what the heap holds beyond the suites, up to a cap) less half of
//     what the suites hold, and half of what the suites hold, whichever
//     is more (see paceFor). So a listed case costs at most its own bytes
//     and half as much again, not five times as much, and a suite with no
//     cases is scored at the scoring's pace; but the goal is not under
//     heapFloor.
//  4. The memory limit is a quarter over each goal, or what the runtime
//     maps then if more (see followed.apply), and at most GOMEMLIMIT when
//     set, else defaultMemoryLimit and twice what the suites hold.
func load(opts suite.RunOptions, paths []string) (*suite.Suite, error) {
	if os.Getenv("GOGC") != "" {
		return opts.Load(paths...)
	}
	pace := debug.SetGCPercent(100)
	var before, roots uint64
	switch spent := allocated() - collectedAt; {
	case spent > smallStart:
		runtime.GC()
		before, roots = heapStats()
	case collectedAt > 0:
		before, roots = heapStats()
		before += spent
	default:
		before = spent
	}
	ceiling := debug.SetMemoryLimit(-1)
	if pace > 100 {
		follow(&followed{pace: pace, loading: true, ceiling: ceiling}, before, 0, roots)
	}
	start := allocated()
	s, err := opts.Load(paths...)
	following.Store(nil)
	cases := uint64(0)
	if s != nil {
		cases = uint64(len(s.Cases))
	}
	// What the suites hold, and what the run will hold for their cases
	// from its start to its end (rule 2).
	// The runtime sets the next goal from the live heap the last
	// collection found: without one after loading, the suites are
	// estimated beyond it.
	var held, estimated uint64
	live := before
	if spent := allocated() - start; spent <= smallLoad {
		held = min(spent, cases*listedCaseBytes) + cases*run.IndexBytes
		estimated = held
	} else {
		runtime.GC()
		live, roots = heapStats()
		held = live - min(before, live) + cases*run.IndexBytes
	}
	if pace <= 100 {
		debug.SetGCPercent(pace)
		debug.SetMemoryLimit(ceiling)
		return s, err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		ceiling = max(ceiling, defaultMemoryLimit+2*int64(held))
	}
	follow(&followed{pace: pace, held: held, besides: history.Holding, ceiling: ceiling}, live, estimated, roots)
	return s, err
}

// defaultMemoryLimit is the soft memory limit main sets unless GOMEMLIMIT
// is set.
const defaultMemoryLimit = 1 << 30

// paceFor returns the GOGC for a heap of live bytes after a collection,
// of which held are the suites' and scoring what the scoring holds, as a
// percentage of live, at most pace. The headroom (the heap the collector
// lets grow before it starts again) is:
//  1. pace percent of what the scoring holds, as a run of suites with no
//     cases has, but at most smallHeadroom: what a collection finds live
//     moves (the results waiting for the run history, a batch being
//     written, traces read ahead, what a long collection finds allocated
//     meanwhile), and a moment of twice the usual must not give twice the
//     headroom;
//  2. less half of what the suites hold: their cases take half their
//     size from the room the scoring's garbage would have had, so that
//     while they hold at most that headroom, the heap goal (live plus
//     headroom) is the one a run of suites with no cases has for the same
//     scoring and half the suites more, not the suites more and the
//     headroom whole (taking all of their size costs a third more
//     collections, each of which marks the suites);
//  3. at least half of what the suites hold, so that a collection, which
//     marks all of it, comes at most once per half of it allocated: the
//     heap goal of large suites is what they hold and half as much again,
//     over what the scoring holds.
//
// The goal is not under heapFloor (see followed.goal).
func paceFor(pace int, held, scoring, live uint64) int {
	if live == 0 {
		return pace
	}
	headroom := min(uint64(pace)*scoring/100, smallHeadroom)
	headroom = max(headroom-min(held/2, headroom), held/2)
	return int(min(uint64(pace), 100*headroom/live))
}

// heapFloor is the heap goal under which the collector does not start
// once the suites begin to load (rules 1 and 3 of load): right after
// loading the scoring holds nothing yet, and on one core it holds 7 to 9
// MB of the peer set's trajectories besides the cases, so the pace alone
// sets goals of 16 to 45 MB, each collection marking every listed case.
// At 40 MB the peer set's run collects twice after loading, three times
// before; 48 MB gave the same count there, and 10 MiB more peak to runs
// whose scoring holds little (4,000 traces, no cases).
//
// The GOGC that puts the goal at the floor may be more than the pace: the
// percent set after a collection applies to what the next one finds live
// until the follower runs, which on one core can be a collection later
// (GOGC 1200 set for 3 MB live put a goal at 148 MB when the next found
// 11 MB), and the memory limit a quarter over the goal starts that
// collection instead (followed.apply).
const heapFloor = 40 << 20

// percentFor returns the GOGC that puts the next collection at goal bytes
// of heap after one that found live bytes of heap and roots bytes of
// stacks and globals: the runtime's goal is live and GOGC percent of live
// and roots, but at least heapMinimum times GOGC percent; so the percent
// is at most what puts that minimum at goal (at a heap of a megabyte, the
// minimum alone put the goal at 120 to 190 MB). 0 when live is goal or
// more, or unknown (0).
func percentFor(goal, live, roots uint64) int {
	if live == 0 {
		return 0
	}
	return int(min(100*(goal-min(goal, live))/(live+roots), 100*goal/heapMinimum))
}

// heapMinimum is the runtime's least heap goal at GOGC 100.
const heapMinimum = 4 << 20

// smallHeadroom is the most headroom the scoring has before a collection
// (rule 1 of paceFor): what GOGC 400 gives a scoring that holds 16 MB. On
// bench/suitegen's traces the scoring holds 9 to 14 MB, with the run
// history 11 to 25.
const smallHeadroom = 64 << 20

// following is what the collector follows (see follow); nil when
// nothing is.
var following atomic.Pointer[followed]

// armed says that the follower runs.
var armed atomic.Bool

// followed is what the collector follows: while the suites load, GOGC 100
// over the floor; then the pace and what the suites hold (paceFor) over
// the floor.
type followed struct {
	pace    int
	held    uint64
	loading bool
	// besides returns what the heap holds that is neither the suites'
	// nor the scoring's (the run history's buffers); nil for nothing.
	besides func() uint64
	// ceiling is the most the memory limit may be: GOMEMLIMIT, else the
	// default limit and twice what the suites hold.
	ceiling int64
}

// follow sets GOGC and the memory limit for f and the live heap the last
// collection found (live bytes, and roots bytes of stacks and globals;
// estimated bytes more that it did not find: see rule 2 of load), and
// after each collection from then on for what it finds. One follower runs
// whatever the number of calls: the last call's f is followed.
func follow(f *followed, live, estimated, roots uint64) {
	f.apply(live, estimated, roots, mapped())
	following.Store(f)
	armFollower()
}

// apply sets GOGC for a collection that found live bytes of heap and
// roots bytes of stacks and globals, when the heap holds estimated bytes
// more that it did not find, so that the runtime's goal is f's, and the
// memory limit a quarter over that goal, when the runtime maps m, or what
// it maps if more: the limit starts the next collection early when it
// finds much more live than this one (see heapFloor), and never asks the
// runtime to give back memory it holds.
//
// The huge heap's pads (heapPadBytes) are live to the runtime but left
// out of live, so that they set no pace: the runtime's goal is put at f's
// and the pads, not at the pads and GOGC percent of them more.
func (f *followed) apply(live, estimated, roots uint64, m mapping) {
	padded := live + heapPadBytes // the live heap as the runtime counts it
	percent := percentFor(f.goal(live+estimated, roots)+heapPadBytes, padded, roots)
	if live == 0 {
		percent = f.pace // a runtime that does not say keeps the pace
	}
	debug.SetGCPercent(percent)
	goal := max(padded+uint64(percent)*(padded+roots)/100, heapMinimum*uint64(percent)/100)
	limit := max(m.inuse-min(padded, m.inuse)+goal+goal/4, m.ready)
	debug.SetMemoryLimit(min(f.ceiling, int64(min(limit, math.MaxInt64))))
}

// goal returns the heap goal after a collection that found live bytes of
// heap and roots bytes of stacks and globals: the live heap and its
// percent of live and roots, as the runtime counts GOGC, but not under
// heapFloor. The percent is 100 while the suites load; then paceFor's,
// where what neither the suites nor the run history hold is the
// scoring's (the history's buffers are bounded and not garbage the
// scoring makes: counted as the scoring's, they would raise the goal by
// four times their size, and the scoring's new objects would spread over
// that much more memory).
func (f *followed) goal(live, roots uint64) uint64 {
	percent := 100
	if !f.loading {
		scoring := live - min(f.held, live)
		if f.besides != nil {
			scoring -= min(f.besides(), scoring)
		}
		percent = paceFor(f.pace, f.held, scoring, live)
	}
	return max(live+uint64(percent)*(live+roots)/100, heapFloor)
}

// A gcTick is garbage whose cleanup runs after the collection that freed
// it. It holds a pointer so that it is not batched with other small
// values, which would keep it alive.
type gcTick struct{ _ *byte }

// armFollower starts the follower unless it runs.
func armFollower() {
	if armed.CompareAndSwap(false, true) {
		tick()
	}
}

func tick() {
	runtime.AddCleanup(&gcTick{}, func(struct{}) {
		if f := following.Load(); f != nil {
			live, roots := heapStats()
			f.apply(live, 0, roots, mapped())
		}
		tick()
	}, struct{}{})
}

// allocated returns the bytes of heap allocated since the program
// started; 0 when the runtime does not say.
func allocated() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// smallStart is the most the heap may have allocated before the suites
// load, since the huge heap's collection or since start-up when there was
// none, for the collection before loading to be left out (rule 1 of
// load): start-up and a command's set-up allocate a megabyte or two. A
// variable so that a test can choose either way.
var smallStart uint64 = 8 << 20

// smallLoad is the most a load may allocate (what the suites hold and
// the parse's garbage) for what the suites hold to be estimated rather
// than measured by a collection (rule 2 of load): the peer set's 10,000
// listed cases allocate about 10 MB.
const smallLoad = 16 << 20

// listedCaseBytes is about what a listed case of a small suite holds,
// for the estimate of rule 2 of load: its internal case with its id
// (about 110 bytes, BenchmarkLoadFile_manyCases) and the public one (112).
const listedCaseBytes = 224

// heapStats returns the bytes of heap the last collection found in use,
// less the huge heap's pads (heapPadBytes: held, never touched), and of
// the stacks and globals it scanned (the roots); 0 for what the runtime
// does not say.
func heapStats() (live, roots uint64) {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(samples)
	var n [3]uint64
	for i, sample := range samples {
		if sample.Value.Kind() == metrics.KindUint64 {
			n[i] = sample.Value.Uint64()
		}
	}
	return n[0] - min(heapPadBytes, n[0]), n[1] + n[2]
}

// A mapping is what the runtime maps and has not given back: ready, all
// of it; inuse, all but its free heap (heap objects, stacks, its own
// tables, the unused parts of spans).
type mapping struct{ ready, inuse uint64 }

// mapped returns what the runtime maps now; zeros for what it does not
// say.
func mapped() mapping {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(samples)
	var n [3]uint64
	for i, sample := range samples {
		if sample.Value.Kind() == metrics.KindUint64 {
			n[i] = sample.Value.Uint64()
		}
	}
	ready := n[0] - min(n[1], n[0])
	return mapping{ready: ready, inuse: ready - min(n[2], ready)}
}
