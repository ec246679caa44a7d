module example.com/agent-evals

go 1.26.0

require github.com/trajeval/trajeval v0.0.0

require (
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/hashicorp/go-version v1.9.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.3-0.20250322232337-35a7c28c31ee // indirect
	go.opentelemetry.io/collector/featuregate v1.67.0 // indirect
	go.opentelemetry.io/collector/pdata v1.67.0 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// Inside the trajeval repository the library is the checkout itself. In your
// own module, drop this line and require a released version instead.
replace github.com/trajeval/trajeval => ../..
