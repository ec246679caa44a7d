package distro_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestBuilderConfig checks the builder manifest builds the Collector of
// Components: it names the connector, and pins every module at a version
// that agrees with go.mod: the same version when go.mod requires the
// module, else the one its release pairs with (v1.x for stable Collector
// modules, v0.x for the others).
const connectorModule = "github.com/trajeval/trajeval/otelcol"

func TestBuilderConfig(t *testing.T) {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	// The lines "path version" of go.mod's require blocks.
	have := map[string]string{}
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && strings.HasPrefix(f[1], "v") && !strings.HasSuffix(f[0], ")"):
			have[f[0]] = f[1]
		}
	}
	// (Not pdata: the core module requires a newer one.)
	stable, unstable := have["go.opentelemetry.io/collector/component"], have["go.opentelemetry.io/collector/otelcol"]
	if stable == "" || unstable == "" {
		t.Fatal("go.mod requires no component or otelcol module")
	}

	var manifest struct {
		Receivers, Exporters, Connectors, Extensions, Providers []struct {
			GoMod  string `yaml:"gomod"`
			Import string `yaml:"import"`
		}
	}
	data, err = os.ReadFile("builder-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	connector := false
	all := slices.Concat(manifest.Receivers, manifest.Exporters, manifest.Connectors, manifest.Extensions, manifest.Providers)
	for _, m := range all {
		path, version, ok := strings.Cut(m.GoMod, " ")
		if !ok {
			t.Errorf("gomod %q has no version", m.GoMod)
			continue
		}
		switch {
		case path == connectorModule:
			connector = m.Import == path
		case have[path] != "":
			if version != have[path] {
				t.Errorf("%s: the manifest pins %s, go.mod %s", path, version, have[path])
			}
		case strings.HasPrefix(path, "go.opentelemetry.io/collector/"):
			if version != stable && version != unstable {
				t.Errorf("%s %s: neither %s nor %s, the release of go.mod", path, version, stable, unstable)
			}
		default:
			t.Errorf("%s: not a Collector module, and not in go.mod", path)
		}
	}
	if !connector {
		t.Errorf("the manifest does not build in the connector %s", connectorModule)
	}
}
