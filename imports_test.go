package trajeval_test

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports keeps the packages a user imports for a small job from
// pulling in the whole engine: each of them, with the packages of this
// module it imports (transitively), imports nothing outside the standard
// library and this module.
func TestImports(t *testing.T) {
	tests := []struct {
		pkg    string
		reason string
	}{
		{module, "the model: a program that wants only the types gets them with the standard library alone"},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			seen := map[string]bool{}
			var walk func(path string)
			walk = func(path string) {
				if seen[path] {
					return
				}
				seen[path] = true
				dir := filepath.Join(".", filepath.FromSlash(strings.TrimPrefix(path, module)))
				p, err := build.ImportDir(dir, 0)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				for _, imp := range p.Imports {
					switch first, _, _ := strings.Cut(imp, "/"); {
					case !strings.Contains(first, "."): // the standard library
					case imp == module || strings.HasPrefix(imp, module+"/"):
						walk(imp)
					default:
						t.Errorf("%s imports %s, outside the standard library and this module (%s)", path, imp, tt.reason)
					}
				}
			}
			walk(tt.pkg)
		})
	}
}
