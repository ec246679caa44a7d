package history

// Compress is compress, for the benchmarks.
var Compress = compress
