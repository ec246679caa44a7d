package main

import (
	"fmt"
	"os"
	"strings"
)

// agentvSpelling returns the error for eval's arguments spelled as
// AgentV's command line (agentv eval run FILE): trajeval has no run
// subcommand, so "run" would be read as a suite path. A file or folder
// named run is a suite path, and no mistake.
func agentvSpelling(args []string) error {
	if len(args) < 2 || args[0] != "run" {
		return nil
	}
	if _, err := os.Stat("run"); err == nil {
		return nil
	}
	return usageError{fmt.Errorf("trajeval has no `eval run`; did you mean: trajeval eval %s", strings.Join(args[1:], " "))}
}
