//go:build race

package argmatch_test

const raceEnabled = true
