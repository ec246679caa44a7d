//go:build !unix

package sidefile

// openNoWait: no named pipes to wait on here.
const openNoWait = 0
