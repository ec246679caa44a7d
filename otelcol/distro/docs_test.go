package distro_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocs checks docs/otelcol.md shows the configurations the tests run,
// byte for byte.
func TestDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/otelcol.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"front.yaml", "scorer.yaml"} {
		conf, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```yaml\n"+string(conf)+"```\n") {
			t.Errorf("docs/otelcol.md does not show testdata/%s as it is", name)
		}
	}
}
