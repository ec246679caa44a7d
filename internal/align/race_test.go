//go:build race

package align_test

const raceEnabled = true
