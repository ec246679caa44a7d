//go:build !unix

package claudecode

// openNoWait: no named pipes to wait on here.
const openNoWait = 0
