//go:build !unix

package history

// processAlive cannot tell here (known is false): the heartbeat decides.
func processAlive(pid int) (alive, known bool) { return false, false }
