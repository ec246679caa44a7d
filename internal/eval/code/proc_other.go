//go:build !unix

package code

import "os/exec"

// killGroup kills the program alone: process groups are a Unix notion.
func killGroup(*exec.Cmd) {}
