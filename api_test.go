package trajeval_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "accept the current exported API as testdata/api/*.txt")

const module = "github.com/trajeval/trajeval"

// TestAPI keeps the exported API of every public package in
// testdata/api/NAME.txt, so that it changes only on purpose: a change
// fails the test until it is accepted with go test -run TestAPI -update.
//
// The listing is each exported name's declaration, with the fields and
// methods of every exported type, aliases of internal types included
// (their fields and methods are this package's API too). Doc comments are
// not part of it.
func TestAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the export data of every public package")
	}
	pkgs := publicPackages(t)
	if len(pkgs) == 0 {
		t.Fatal("no public package found")
	}
	imp := exportImporter(t, pkgs)
	want := map[string]bool{}
	for _, path := range pkgs {
		name := apiFile(path)
		want[name] = true
		t.Run(name, func(t *testing.T) {
			pkg, err := imp.Import(path)
			if err != nil {
				t.Fatal(err)
			}
			got := listAPI(pkg)
			file := filepath.Join("testdata", "api", name)
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			old, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v\nthe public package %s has no API listing: accept it with go test -run TestAPI -update", err, path)
			}
			if string(old) != got {
				t.Errorf("the exported API of %s changed:\n%s\nif on purpose, accept it with go test -run TestAPI -update", path, lineDiff(string(old), got))
			}
		})
	}
	// A listing whose package is gone is stale.
	entries, _ := os.ReadDir(filepath.Join("testdata", "api"))
	for _, e := range entries {
		if !want[e.Name()] {
			if *update {
				os.Remove(filepath.Join("testdata", "api", e.Name()))
				continue
			}
			t.Errorf("testdata/api/%s lists a package that is no longer public; remove it with go test -run TestAPI -update", e.Name())
		}
	}
}

// publicPackages returns the import paths of the module's public
// packages: every package outside internal, cmd, examples, bench and
// testdata folders and nested modules.
func publicPackages(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		base := d.Name()
		if path != "." {
			switch {
			case strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_"),
				base == "internal", base == "cmd", base == "examples", base == "bench", base == "testdata":
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			// A command (package main, such as release) has no API.
			if af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly); err == nil && af.Name.Name == "main" {
				break
			}
			out = append(out, strings.TrimSuffix(module+"/"+filepath.ToSlash(path), "/."))
			break
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// apiFile names the listing of a package: its path in the module, with
// slashes as dashes; the root package is trajeval.
func apiFile(path string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
	if rel == "" {
		rel = "trajeval"
	}
	return strings.ReplaceAll(rel, "/", "-") + ".txt"
}

// exportImporter imports packages from the export data the go command
// builds, so that listing the API type-checks nothing itself.
func exportImporter(t *testing.T, pkgs []string) types.Importer {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, pkgs...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok {
			exports[path] = file
		}
	}
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}

// listAPI lists the exported API of pkg, one declaration per line, sorted
// by name; a type's exported fields and methods follow it, indented.
func listAPI(pkg *types.Package) string {
	qual := func(p *types.Package) string {
		switch p.Path() {
		case pkg.Path():
			return ""
		case module:
			return "trajeval"
		}
		return strings.TrimPrefix(p.Path(), module+"/")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s // import %q\n\n", pkg.Name(), pkg.Path())
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			b.WriteString(types.ObjectString(obj, qual) + "\n")
			continue
		}
		typ := types.Unalias(tn.Type())
		_, st := typ.Underlying().(*types.Struct)
		if (st || types.IsInterface(typ)) && !tn.IsAlias() {
			// Not its unexported fields: they are no API.
			kind := "struct"
			if !st {
				kind = "interface"
			}
			b.WriteString("type " + name + " " + kind + "\n")
		} else {
			b.WriteString(types.ObjectString(obj, qual) + "\n")
		}
		if st, ok := typ.Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				f := st.Field(i)
				if !f.Exported() {
					continue
				}
				line := "\tfield " + f.Name() + " " + types.TypeString(f.Type(), qual)
				if f.Embedded() {
					line = "\tembedded " + types.TypeString(f.Type(), qual)
				}
				if tag := st.Tag(i); tag != "" {
					line += " `" + tag + "`"
				}
				b.WriteString(line + "\n")
			}
		}
		if it, ok := typ.Underlying().(*types.Interface); ok {
			for i := range it.NumMethods() {
				m := it.Method(i)
				if m.Exported() {
					b.WriteString("\tmethod " + m.Name() + strings.TrimPrefix(types.TypeString(m.Type(), qual), "func") + "\n")
				}
			}
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(typ))
		for i := range ms.Len() {
			m := ms.At(i).Obj()
			if !m.Exported() {
				continue
			}
			sig := m.Type().(*types.Signature)
			recv := "T"
			if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
				recv = "*T"
			}
			b.WriteString("\tmethod (" + recv + ") " + m.Name() + strings.TrimPrefix(types.TypeString(sig, qual), "func") + "\n")
		}
	}
	return b.String()
}

// lineDiff lists the lines only in old (-) and only in new (+).
func lineDiff(old, new string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	o, n := count(old), count(new)
	var b strings.Builder
	for _, l := range strings.Split(old, "\n") {
		if n[l] == 0 {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(new, "\n") {
		if o[l] == 0 {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
