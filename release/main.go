// Command release builds trajeval's release archives: one per platform
// (linux, darwin, windows × amd64, arm64), each holding the binary with its
// version stamped, the README and the LICENSE, as .tar.gz (.zip for
// windows), with a SHA256SUMS file beside them. A missing README or
// LICENSE is an error: an archive is never shipped without its licence.
//
// Usage, from the repository's root:
//
//	go run ./release -version v1.2.3 -out dist
//
// The builds cross-compile with CGO_ENABLED=0 and -trimpath, so the same
// commit gives the same binaries on every machine. Nothing is uploaded.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// extras are the files beside the binary in every archive.
var extras = []string{"README.md", "LICENSE"}

// A platform is one GOOS/GOARCH pair that gets an archive.
type platform struct{ os, arch string }

// platforms are the archives' targets, in the order they are built.
var platforms = []platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func main() {
	version := flag.String("version", "", "version stamped into the binaries, e.g. v1.2.3 (default: git describe, else \"dev\")")
	out := flag.String("out", "dist", "folder that gets the archives and SHA256SUMS")
	only := flag.String("platforms", "", "comma-separated GOOS/GOARCH pairs to build (default: all six)")
	flag.Parse()
	if err := run(*version, *out, *only); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(version, out, only string) error {
	if version == "" {
		version = describe()
	}
	targets, err := choose(only)
	if err != nil {
		return err
	}
	for _, name := range extras {
		if _, err := os.Stat(name); err != nil {
			return fmt.Errorf("%w (hint: run from the repository's root)", err)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "trajeval-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var sums []string
	for _, p := range targets {
		name, err := archive(p, version, tmp, out)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", p.os, p.arch, err)
		}
		sum, err := sha256File(filepath.Join(out, name))
		if err != nil {
			return err
		}
		sums = append(sums, sum+"  "+name)
		fmt.Println(name)
	}
	sort.Strings(sums)
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(sums, "\n")+"\n"), 0o644)
}

// choose returns the platforms named in only, or all of them.
func choose(only string) ([]platform, error) {
	if only == "" {
		return platforms, nil
	}
	var ps []platform
	for _, s := range strings.Split(only, ",") {
		goos, arch, ok := strings.Cut(strings.TrimSpace(s), "/")
		if !ok {
			return nil, fmt.Errorf("-platforms: %q is not GOOS/GOARCH", s)
		}
		ps = append(ps, platform{goos, arch})
	}
	return ps, nil
}

// describe is the checkout's version from git, or "dev" outside one.
func describe() string {
	b, err := exec.Command("git", "describe", "--tags", "--always", "--dirty").Output()
	if err != nil {
		return "dev"
	}
	return strings.TrimSpace(string(b))
}

// archive builds trajeval for p into tmp and packs it into out; it
// returns the archive's file name.
func archive(p platform, version, tmp, out string) (string, error) {
	exe := "trajeval"
	if p.os == "windows" {
		exe += ".exe"
	}
	bin := filepath.Join(tmp, p.os+"-"+p.arch, exe)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", bin, "./cmd/trajeval")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.os, "GOARCH="+p.arch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	files := append([]string{bin}, extras...)
	base := fmt.Sprintf("trajeval_%s_%s_%s", strings.TrimPrefix(version, "v"), p.os, p.arch)
	if p.os == "windows" {
		return base + ".zip", writeZip(filepath.Join(out, base+".zip"), files)
	}
	return base + ".tar.gz", writeTarGz(filepath.Join(out, base+".tar.gz"), files)
}

// stamp is the archives' entries' time: fixed, so that an archive depends
// only on its files.
var stamp = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func writeTarGz(path string, files []string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for i, name := range files {
		fi, err := os.Stat(name)
		if err != nil {
			return err
		}
		mode := int64(0o644)
		if i == 0 { // the binary comes first
			mode = 0o755
		}
		hdr := &tar.Header{Name: filepath.Base(name), Mode: mode, Size: fi.Size(), ModTime: stamp, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if err := copyFile(tw, name); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(path string, files []string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	zw := zip.NewWriter(f)
	for _, name := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.Base(name), Method: zip.Deflate, Modified: stamp})
		if err != nil {
			return err
		}
		if err := copyFile(w, name); err != nil {
			return err
		}
	}
	return zw.Close()
}

func copyFile(w io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
