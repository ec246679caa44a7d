// Package distro is a custom OpenTelemetry Collector with the trajeval
// connector: the program `ocb --config builder-config.yaml` generates,
// written out so that its tests can start whole Collectors in process.
//
// The Collector holds, by type:
//  1. receivers: otlp;
//  2. connectors: trajeval (traces in, gen_ai.evaluation.result log
//     events out);
//  3. exporters: otlp, otlphttp, debug, and loadbalancing (the contrib
//     exporter that routes every span of a trace to one backend);
//  4. extensions: file_storage (a persistent sending queue for the
//     exporters);
//  5. configuration providers: file: and env:.
//
// It is a module of its own because the loadbalancing exporter pulls the
// Kubernetes and AWS clients (for its k8s: and aws_cloud_map: resolvers):
// the connector's module stays light for those who build their own
// Collector.
package distro

import (
	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/loadbalancingexporter"
	"github.com/open-telemetry/opentelemetry-collector-contrib/extension/storage/filestorage"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/connector"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/debugexporter"
	"go.opentelemetry.io/collector/exporter/otlpexporter"
	"go.opentelemetry.io/collector/exporter/otlphttpexporter"
	"go.opentelemetry.io/collector/extension"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"

	trajevalconnector "github.com/trajeval/trajeval/otelcol"
)

// Name is the Collector's command name.
const Name = "otelcol-trajeval"

// Components returns the factories of the Collector's components.
func Components() (otelcol.Factories, error) {
	var err error
	f := otelcol.Factories{Telemetry: otelconftelemetry.NewFactory()}
	if f.Receivers, err = otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory()); err != nil {
		return otelcol.Factories{}, err
	}
	if f.Connectors, err = otelcol.MakeFactoryMap[connector.Factory](trajevalconnector.NewFactory()); err != nil {
		return otelcol.Factories{}, err
	}
	if f.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](otlpexporter.NewFactory(),
		otlphttpexporter.NewFactory(), debugexporter.NewFactory(), loadbalancingexporter.NewFactory()); err != nil {
		return otelcol.Factories{}, err
	}
	if f.Extensions, err = otelcol.MakeFactoryMap[extension.Factory](filestorage.NewFactory()); err != nil {
		return otelcol.Factories{}, err
	}
	return f, nil
}

// Settings returns the Collector's settings reading its configuration
// from uris (file paths, or file:, env: URIs). The Collector does not
// stop itself on SIGINT or SIGTERM when the settings are for a test
// (handleSignals false).
func Settings(version string, handleSignals bool, uris ...string) otelcol.CollectorSettings {
	return otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: Name,
			Description: "OpenTelemetry Collector with the trajeval connector", Version: version},
		Factories:               Components,
		DisableGracefulShutdown: !handleSignals,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs:              uris,
			ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory(), envprovider.NewFactory()},
			DefaultScheme:     "env",
		}},
	}
}
