//go:build !race

package calls_test

const raceEnabled = false
