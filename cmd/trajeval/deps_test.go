package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps_lean keeps libraries out of the command that few commands
// need, or none: each package linked costs every command its init and
// its pages. The tests may use them (a real gRPC client, gzip blobs of
// an old history).
func TestDeps_lean(t *testing.T) {
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
	tests := []struct {
		banned string
		reason string
	}{
		{"google.golang.org/grpc", "serve speaks gRPC with net/http's HTTP/2 (118 packages with protobuf)"},
		{"google.golang.org/protobuf", "serve encodes its few protobuf messages by hand"},
		{"google.golang.org/genproto", "as protobuf"},
		{"github.com/klauspost/compress/flate", "the history reads an old gzip value with compress/gzip, which net/http links anyway (its init built tables for every command)"},
		{"github.com/klauspost/compress/gzip", "as klauspost/compress/flate"},
	}
	for _, tt := range tests {
		for _, p := range pkgs {
			if p == tt.banned || strings.HasPrefix(p, tt.banned+"/") {
				t.Errorf("the command links %s: each command would pay its init (%s)", p, tt.reason)
			}
		}
	}
}
