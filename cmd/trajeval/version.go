package main

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"sync"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version (the same as trajeval --version)",
		Args:  noArgs("trajeval version"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "trajeval %s\n", currentVersion())
			return nil
		},
	}
}

// currentVersion is the version of this binary.
func currentVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// pseudo matches a pseudo-version's timestamp and revision, as the go
// command makes them for a commit without a tag.
var pseudo = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[.-](?:0\.)?\d{14}-[0-9a-f]{12}(?:\+incompatible)?(?:\+dirty)?$`)
})

// versionOf says which trajeval this is, the first that applies:
//  1. the version set with -ldflags "-X main.version=...";
//  2. the module's version, when it was installed with go install
//     ...@vX (a tagged release);
//  3. the commit it was built from: the short revision, "+dirty" when the
//     checkout had changes, and the commit's time;
//  4. a pseudo-version the go command made (a commit without a tag);
//  5. "(devel)" and the Go version, saying that the build carries neither
//     a version nor a commit (go build -buildvcs=false, or outside a
//     checkout).
func versionOf(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "(devel, no build information)"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" && !pseudo().MatchString(v) {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "+dirty"
		}
		if at != "" {
			rev += " (" + at + ")"
		}
		return "devel " + rev
	}
	if v != "" && v != "(devel)" {
		return v
	}
	return "(devel, " + bi.GoVersion + ", built without version or commit information)"
}
