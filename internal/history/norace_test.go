//go:build !race

package history_test

const raceEnabled = false
