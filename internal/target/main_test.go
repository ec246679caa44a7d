package target_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/target"
)

// helperEnv makes the test binary a stand-in for trajeval: it runs the
// agent named by the variable's value (its arguments, split on spaces)
// as a target, and ends when the target does.
const helperEnv = "TRAJEVAL_TARGET_TEST_HELPER"

func TestMain(m *testing.M) {
	// The test binary is its own supervisor, as trajeval is.
	target.Supervise()
	if argv := os.Getenv(helperEnv); argv != "" {
		os.Exit(helper(argv))
	}
	os.Exit(m.Run())
}

func helper(argv string) int {
	tg := &target.Target{Name: "agent", Provider: target.CLI, Shell: argv, Timeout: time.Minute}
	_, err := target.Run(context.Background(), tg, target.Request{CaseID: "c1", Attempt: 1})
	fmt.Fprintln(os.Stderr, err)
	return 0
}
