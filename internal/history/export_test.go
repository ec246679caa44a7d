package history

import (
	"errors"
	"time"

	"github.com/trajeval/trajeval"
)

// Compress is compress, for the benchmarks.
var Compress = compress

// Unpack, AppendPacked and Unsqueeze are unpack, appendPacked and
// unsqueeze, for the fuzz targets.
var (
	Unpack       = unpack
	AppendPacked = appendPacked
	Unsqueeze    = unsqueeze
)

// AppendDetails is appendDetails of ds, for its tests.
func AppendDetails(b []byte, ds []*trajeval.Details) ([]byte, error) {
	return appendDetails(b, len(ds), func(i int) *trajeval.Details { return ds[i] })
}

// PackDetails is packDetails, to write cases as schema version 5 did.
var PackDetails = packDetails

// AppendRef and ParseRef write and read a reference into a chunk, for
// the fuzz target.
func AppendRef(b []byte, chunk int64, off, size int) []byte {
	return appendRef(b, chunkRef{chunk, off, size})
}

func ParseRef(b []byte) (chunk int64, off, size int, ok bool) {
	r, ok := parseRef(b)
	return r.chunk, r.off, r.size, ok
}

// SetMaxChunk sets the bytes of a chunk until the test ends.
func SetMaxChunk(t interface{ Cleanup(func()) }, n int) {
	old := maxChunk
	maxChunk = n
	t.Cleanup(func() { maxChunk = old })
}

// SetHeartbeatEvery sets how often recorders begun from now on beat when
// idle, until the test ends.
func SetHeartbeatEvery(t interface{ Cleanup(func()) }, d time.Duration) {
	old := heartbeatEvery
	heartbeatEvery = d
	t.Cleanup(func() { heartbeatEvery = old })
}

// RewritePack returns the pack blob (compressed, as stored) with each
// case's references to its trajectory and details replaced by f's, and
// cut short by cut bytes before it is compressed again: a pack damaged
// on purpose, for the tests.
func RewritePack(blob []byte, cut int, f func(traj, details []byte) ([]byte, []byte)) ([]byte, error) {
	data, err := unsqueeze(blob)
	if err != nil {
		return nil, err
	}
	cases, err := unpackCases(data)
	if err != nil {
		return nil, err
	}
	out := packHeader(len(cases))
	for i := range cases {
		cases[i].traj, cases[i].details = f(cases[i].traj, cases[i].details)
		out = appendStored(out, &cases[i])
	}
	return squeeze(out[:len(out)-cut]), nil
}

// UnpackCases reads a pack of cases (decompressed) and writes it again:
// the bytes its cases write, for the fuzz target.
func UnpackCases(data []byte) ([]byte, int, error) {
	cases, err := unpackCases(data)
	if err != nil {
		return nil, 0, err
	}
	out := packHeader(len(cases))
	for i := range cases {
		out = appendStored(out, &cases[i])
	}
	return out, len(cases), nil
}

// PackOf returns the decompressed pack of the cases of a run's first
// pack blob, for the fuzz target's seeds.
func PackOf(blob []byte) ([]byte, error) { return unsqueeze(blob) }

// AppendTrajectory, ReadTrajectory and DecodeTrajectory are
// appendTrajectory, readTrajectory and decodeTrajectory, for the tests
// of the trajectories' encoding.
var (
	AppendTrajectory = appendTrajectory
	ReadTrajectory   = readTrajectory
	DecodeTrajectory = decodeTrajectory
)

// ErrTrajectory is errTrajectory, for errors.Is.
var ErrTrajectory = errTrajectory

// SetJSONTrajectories makes recorders store trajectories as their
// canonical JSON, as before schema version 9, when on; until the test
// ends.
func SetJSONTrajectories(t interface{ Cleanup(func()) }, on bool) {
	jsonTrajectories = on
	t.Cleanup(func() { jsonTrajectories = false })
}

// SetTrajectoryCodeV9 makes recorders and AppendTrajectory write
// trajectories in the encoding of schema versions 9 and 10 (times as
// seconds and nanoseconds), when on; until the test ends.
func SetTrajectoryCodeV9(t interface{ Cleanup(func()) }, on bool) {
	trajCodeV9 = on
	t.Cleanup(func() { trajCodeV9 = false })
}

// SetKeptTextV11 makes recorders and AppendTrajectory write the JSON text
// a reader kept as the values it holds, as schema version 11 did, when
// on; until the test ends.
func SetKeptTextV11(t interface{ Cleanup(func()) }, on bool) {
	keptTextV11 = on
	t.Cleanup(func() { keptTextV11 = false })
}

// AppendDetailsCode and ReadDetails are appendDetailsCode and
// readDetails, for the tests of the details' encoding.
var (
	AppendDetailsCode = appendDetailsCode
	ReadDetails       = readDetails
)

// ErrDetails is errDetails, for errors.Is.
var ErrDetails = errDetails

// SetJSONDetails makes recorders store details as their JSON array, as
// before schema version 10, when on; until the test ends.
func SetJSONDetails(t interface{ Cleanup(func()) }, on bool) {
	jsonDetails = on
	t.Cleanup(func() { jsonDetails = false })
}

// SetNewSchema makes new databases from their newest schema at once when
// on (as they are), by their migrations when off; until the test ends.
func SetNewSchema(t interface{ Cleanup(func()) }, on bool) {
	newSchema = on
	t.Cleanup(func() { newSchema = true })
}

// SetImage makes new SQLite files from the embedded image when on (as
// they are), from their schema when off; until the test ends.
func SetImage(t interface{ Cleanup(func()) }, on bool) {
	useImage = on
	t.Cleanup(func() { useImage = true })
}

// WriteImage is writeImage: dsn made a copy of the image unless it exists.
func WriteImage(dsn string) error { return writeImage(dsn) }

// ImageFile is the image's path in the package's folder.
const ImageFile = imageFile

// HandOverStopped hands r's group being filled over as to a writer that
// has stopped on an error (one that takes no group and has returned):
// for the test of what the recorder gives back then. r's own writer
// never sees the group.
func HandOverStopped(r *Recorder) {
	r.gmu.Lock()
	defer r.gmu.Unlock()
	stopped := make(chan struct{})
	close(stopped)
	s := &Recorder{ch: make(chan *group), done: stopped, group: r.group, steps: r.steps, details: r.details}
	r.group = nil
	s.handOver()
}

// AddGroup adds a group of n results, encoded as rows of two bytes (i,
// i) but for the errAt-th (-1 for none), which could not be encoded, to a
// batch that holds held results, as the writer's take does: a new batch
// once one is full. It returns how many results each call of add took,
// the rows each batch got from the group, and add's error.
func AddGroup(n, errAt, held int) (takes []int, packs [][]byte, err error) {
	r := &Recorder{}
	g := &group{err: nil, errAt: -1}
	for i := range n {
		start := len(g.rows)
		if i == errAt {
			g.err, g.errAt = errors.New("not encoded"), i
		} else {
			g.rows = append(g.rows, byte(i), byte(i))
		}
		g.ps = append(g.ps, pending{start: start, end: len(g.rows), col: 1})
	}
	b := &batch{n: held}
	for i := 0; i < n; {
		var k int
		if k, err = r.add(b, g, i); err != nil {
			break
		}
		takes = append(takes, k)
		i += k
		if b.n >= maxBatch {
			packs = append(packs, b.pack)
			b = &batch{}
		}
	}
	return takes, append(packs, b.pack), err
}
