package history

// Compress is compress, for the benchmarks.
var Compress = compress

// Unpack, AppendPacked and Unsqueeze are unpack, appendPacked and
// unsqueeze, for the fuzz targets.
var (
	Unpack       = unpack
	AppendPacked = appendPacked
	Unsqueeze    = unsqueeze
)

// AppendDetails is appendDetails, for its tests.
var AppendDetails = appendDetails

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
