package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "f69a02e1c0ffee00112233445566778899aabbcc"
	tests := []struct {
		name    string
		ldflags string
		bi      *debug.BuildInfo
		want    string
		reason  string
	}{
		{"ldflags", "v9.9.9", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v9.9.9", "a version set at build time wins"},
		{"go install @v", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3", "go install ...@v1.2.3 stamps the module version"},
		{"checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-23T11:00:00Z", "false")},
			"devel f69a02e1c0ff (2026-11-23T11:00:00Z)", "a build in a checkout names its commit and time"},
		{"dirty checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-23T11:00:00Z", "true")},
			"devel f69a02e1c0ff+dirty (2026-11-23T11:00:00Z)", "uncommitted changes are said"},
		{"pseudo-version with vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123110000-f69a02e1c0ff+dirty"}, Settings: vcs(rev, "2026-11-23T11:00:00Z", "true")},
			"devel f69a02e1c0ff+dirty (2026-11-23T11:00:00Z)", "Go 1.24+ stamps a pseudo-version in a checkout: the commit reads better"},
		{"pseudo-version alone", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123110000-f69a02e1c0ff"}},
			"v0.0.0-20261123110000-f69a02e1c0ff", "go install ...@commit: the pseudo-version is all there is"},
		{"nothing", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"(devel, go1.26.8, built without version or commit information)", "never (devel) alone"},
		{"no build info", "", nil, "(devel, no build information)", "a binary without build information still says something"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.ldflags, tt.bi); got != tt.want {
				t.Errorf("versionOf = %q, want %q: %s", got, tt.want, tt.reason)
			}
		})
	}
}
