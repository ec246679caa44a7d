package sidefile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/sidefile"
)

// TestOpen opens side files that a hostile session could name: what
// Claude Code's and Gemini CLI's readers both rely on.
func TestOpen(t *testing.T) {
	tests := []struct {
		name   string
		make   func(t *testing.T, sub, outside string) // sub: the file's path; outside: a folder beside dir
		want   string                                  // the bytes read, when the file opens
		err    string                                  // the error holding this, "" for none
		reason string
	}{
		{"a regular file", func(t *testing.T, sub, _ string) { write(t, sub, "x\n") }, "x\n", "", "the ordinary case"},
		{"a link inside the folder", func(t *testing.T, sub, _ string) {
			write(t, filepath.Join(filepath.Dir(sub), "kept.jsonl"), "kept\n")
			symlink(t, "kept.jsonl", sub)
		}, "kept\n", "", "a link that stays in the folder is followed"},
		{"a link outside the folder", func(t *testing.T, sub, outside string) {
			write(t, filepath.Join(outside, "other.jsonl"), "other\n")
			symlink(t, filepath.Join(outside, "other.jsonl"), sub)
		}, "", "outside the session's folder", "a session cannot make trajeval read a file elsewhere"},
		{"a folder linked outside", func(t *testing.T, sub, outside string) {
			write(t, filepath.Join(outside, filepath.Base(sub)), "other\n")
			if err := os.RemoveAll(filepath.Dir(sub)); err != nil {
				t.Fatal(err)
			}
			symlink(t, outside, filepath.Dir(sub))
		}, "", "outside the session's folder", "nor through a linked folder"},
		{"a link to the zero device", func(t *testing.T, sub, _ string) {
			symlink(t, "/dev/zero", sub)
		}, "", "/dev/zero", "endless data is never read"},
		{"a named pipe", func(t *testing.T, sub, _ string) {
			if err := mkfifo(sub); err != nil {
				t.Skip("no named pipes here:", err)
			}
		}, "", "not a regular file", "opening a pipe would wait for a writer forever"},
		{"a folder", func(t *testing.T, sub, _ string) {
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "", "not a regular file", "a folder is no transcript"},
		{"missing", func(*testing.T, string, string) {}, "", "no such file", "a missing file is fs.ErrNotExist, for the reader to report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "session")
			sub := filepath.Join(dir, "agents", "a1.jsonl")
			if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(root, "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, sub, outside)
			f, err := sidefile.Open(dir, sub)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Open = %v, want an error holding %q (%s)", err, tt.err, tt.reason)
				}
				if tt.name == "missing" && !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Open = %v, want fs.ErrNotExist (%s)", err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v (%s)", err, tt.reason)
			}
			defer f.Close()
			b, err := io.ReadAll(f)
			if err != nil || string(b) != tt.want {
				t.Errorf("read %q, %v, want %q (%s)", b, err, tt.want, tt.reason)
			}
		})
	}
}

// TestOpen_sizeAtOpen checks that a file growing while it is read is read
// to the size it had when opened.
func TestOpen_sizeAtOpen(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a1.jsonl")
	write(t, sub, "first\n")
	f, err := sidefile.Open(dir, sub)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := os.OpenFile(sub, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteString("second\n"); err != nil {
		t.Fatal(err)
	}
	g.Close()
	if b, _ := io.ReadAll(f); string(b) != "first\n" {
		t.Errorf("read %q, want %q: the size at open bounds the read", b, "first\n")
	}
}

func TestNameLike(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
		why  string
	}{
		{"256d48f1-820e-4cfc-9100-cce3a39853c4", true, "a UUID, as Gemini CLI names its sub-agents"},
		{"adb01c092bdde38d9", true, "Claude Code's agent ids"},
		{"", false, "no name"},
		{"../../etc", false, "a path"},
		{"a.b", false, "a dot could make .. "},
		{"a/b", false, "a separator"},
		{strings.Repeat("a", 128), true, "128 bytes is the bound"},
		{strings.Repeat("a", 129), false, "past the bound"},
	}
	for _, tt := range tests {
		if got := sidefile.NameLike(tt.name); got != tt.ok {
			t.Errorf("NameLike(%q) = %v, want %v (%s)", tt.name, got, tt.ok, tt.why)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{{"abc", -1}, {"é\xff", 2}, {"\xffa", 0}, {"", -1}} {
		if got := sidefile.InvalidUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}
