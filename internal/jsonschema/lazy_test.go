package jsonschema_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonschema"
)

// This file tests the one change from upstream (see README.md): the drafts'
// meta-schemas compile on the first Compile, not at init. Both tests run
// this test binary again, because in this process some other test may
// already have compiled them.

// firstUseEnv asks the child process to run the concurrent first use.
const firstUseEnv = "JSONSCHEMA_TEST_FIRST_USE"

// initLine is GODEBUG=inittrace=1's line for this package's init.
var initLine = regexp.MustCompile(`(?m)^init github\.com/trajeval/trajeval/internal/jsonschema @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestInit_metaSchemasLazy fails if the package's init compiles the
// meta-schemas again: upstream's init allocates about 1.7 MB in 21,000
// allocations, this one about 10 kB in 160 (the package-level maps of
// formats and drafts).
func TestInit_metaSchemasLazy(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	m := initLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no init line for the package in:\n%s", out)
	}
	bytes, _ := strconv.Atoi(string(m[1]))
	allocs, _ := strconv.Atoi(string(m[2]))
	if bytes > 100_000 || allocs > 1_000 {
		t.Errorf("init allocated %d bytes in %d allocations; want at most 100000 in 1000 (are the meta-schemas compiled at init?)", bytes, allocs)
	}
}

// TestCompile_concurrentFirstUse runs, in a new process, several goroutines
// whose Compile is each the first: every one must see the meta-schemas
// (an invalid schema is refused) with no deadlock and, under -race, no race.
func TestCompile_concurrentFirstUse(t *testing.T) {
	if os.Getenv(firstUseEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCompile_concurrentFirstUse$", "-test.v")
		cmd.Env = append(os.Environ(), firstUseEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	tests := []struct {
		schema  any
		invalid bool
		reason  string
	}{
		{map[string]any{"type": "object"}, false, "a valid schema compiles"},
		{map[string]any{"type": 5.0}, true, "type must be a string or an array: only the meta-schema knows"},
		{map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "minimum": "1"}, true, "draft-07's meta-schema, compiled by the same first use"},
		{map[string]any{"$schema": "https://json-schema.org/draft/2019-09/schema", "properties": 1.0}, true, "2019-09's applicator vocabulary"},
	}
	var wg sync.WaitGroup
	errs := make([]error, 8*len(tests))
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tt := tests[i%len(tests)]
			c := jsonschema.NewCompiler()
			url := fmt.Sprintf("urn:test:%d", i)
			if err := c.AddResource(url, tt.schema); err != nil {
				errs[i] = err
				return
			}
			_, err := c.Compile(url)
			var sve *jsonschema.SchemaValidationError
			switch {
			case tt.invalid && !errors.As(err, &sve):
				errs[i] = fmt.Errorf("%v: got %v, want a SchemaValidationError (%s)", tt.schema, err, tt.reason)
			case !tt.invalid && err != nil:
				errs[i] = fmt.Errorf("%v: %v (%s)", tt.schema, err, tt.reason)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Error(err)
	}
}
