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
