// Command otelcol-trajeval is an OpenTelemetry Collector with the trajeval
// connector, the loadbalancing exporter and the file_storage extension:
//
//	otelcol-trajeval --config collector.yaml
package main

import (
	"os"

	"github.com/trajeval/trajeval/otelcol/distro"
	"go.opentelemetry.io/collector/otelcol"
)

// version is set at link time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	if err := otelcol.NewCommand(distro.Settings(version, true)).Execute(); err != nil {
		os.Exit(1) // the command has printed the error
	}
}
