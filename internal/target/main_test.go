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
// command line that is the variable's value as a target, prints the
// run's error, and ends when the target does. With unsupervisedEnv set
// too, it runs it as a program that never called Supervise does.
const (
	helperEnv       = "TRAJEVAL_TARGET_TEST_HELPER"
	helperTimeout   = "TRAJEVAL_TARGET_TEST_TIMEOUT"
	unsupervisedEnv = "TRAJEVAL_TARGET_TEST_UNSUPERVISED"
)

func TestMain(m *testing.M) {
	if os.Getenv(unsupervisedEnv) == "" {
		// The test binary is its own supervisor, as trajeval is.
		target.Supervise()
	}
	if argv := os.Getenv(helperEnv); argv != "" {
		os.Exit(helper(argv))
	}
	os.Exit(m.Run())
}

func helper(argv string) int {
	timeout, err := time.ParseDuration(os.Getenv(helperTimeout))
	if err != nil {
		timeout = time.Minute
	}
	tg := &target.Target{Name: "agent", Provider: target.CLI, Shell: argv, Timeout: timeout}
	_, err = target.Run(context.Background(), tg, target.Request{CaseID: "c1", Attempt: 1})
	fmt.Println(err)
	return 0
}
