//go:build amd64 && !purego

package jsonv

// UseAVX2 is useAVX2, for the tests that run the scan without AVX2 too.
var UseAVX2 = &useAVX2

// HasAVX2 is hasAVX2, for TestHasAVX2.
var HasAVX2 = hasAVX2
