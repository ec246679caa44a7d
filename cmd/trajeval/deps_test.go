package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps_noGRPC keeps the gRPC and protobuf libraries out of the
// command: serve speaks gRPC with net/http's HTTP/2 and encodes its few
// protobuf messages by hand, and the libraries' inits and pages (118
// packages) would cost every command, not only serve. The tests may use
// them, as a real client.
func TestDeps_noGRPC(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 100 {
		t.Fatalf("go list -deps listed %d packages: not the command's", len(pkgs))
	}
	for _, p := range pkgs {
		for _, banned := range []string{"google.golang.org/grpc", "google.golang.org/protobuf", "google.golang.org/genproto"} {
			if p == banned || strings.HasPrefix(p, banned+"/") {
				t.Errorf("the command links %s: each command would pay its init", p)
			}
		}
	}
}
