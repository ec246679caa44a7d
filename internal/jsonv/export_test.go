package jsonv

// PlainEndSWAR is plainEndSWAR, for the tests that compare plainEnd with
// it on every architecture.
var PlainEndSWAR = plainEndSWAR
