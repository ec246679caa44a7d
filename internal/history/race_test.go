//go:build race

package history_test

const raceEnabled = true
