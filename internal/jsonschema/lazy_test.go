package jsonschema_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonschema"
)

// This file tests the one change from upstream (see README.md): the drafts'
// meta-schemas compile on the first Compile, not at init. The test runs this
// test binary again, because in this process some other test may already
// have compiled them. That init compiles nothing is checked by
// cmd/trajeval's TestInits_lazy, with the other packages' inits.

// firstUseEnv asks the child process to run the concurrent first use.
const firstUseEnv = "JSONSCHEMA_TEST_FIRST_USE"

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
