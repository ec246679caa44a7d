package eval_test

import (
	gobuild "go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImports keeps the engine apart from the suite file reader: package
// eval, and whatever it imports of this module, never imports package
// config (the YAML layer builds on the engine, not the other way round).
func TestImports(t *testing.T) {
	const module = "github.com/trajeval/trajeval/"
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	var walk func(pkg string, via []string)
	walk = func(pkg string, via []string) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		via = append(slices.Clip(via), pkg)
		if pkg == module+"internal/config" {
			t.Errorf("package eval imports package config: %s", strings.Join(via, " -> "))
			return
		}
		p, err := gobuild.ImportDir(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(pkg, module))), 0)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				walk(imp, via)
			}
		}
	}
	walk(module+"internal/eval", nil)
	if len(seen) < 3 {
		t.Fatalf("walked %d packages: the walk found nothing to check", len(seen))
	}
}
