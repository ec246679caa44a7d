//go:build !race

package builtin_test

const raceEnabled = false
