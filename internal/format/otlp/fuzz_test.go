package otlp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

// FuzzRead feeds arbitrary bytes to both readers: they must keep the
// promises of formattest.CheckRead (deterministic, errors placed inside the
// input, complete trajectories that survive their canonical JSON).
func FuzzRead(f *testing.F) {
	for _, dir := range []string{"otlp", "otlp-proto"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
		for _, path := range files {
			if filepath.Ext(path) == ".txt" || bytes.HasSuffix([]byte(path), []byte(".want.jsonl")) {
				continue
			}
			if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"01","spanId":"02","name":"execute_tool a","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"gen_ai.tool.call.arguments","value":{"stringValue":"{\"a\":1}"}}]}]}]}]}`))
	f.Add([]byte("\x0a\x08\x12\x06\x12\x04\x12\x02\x08\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []trajeval.Format{otlp.JSON, otlp.Proto} {
			formattest.CheckRead(t, format, "fuzz", data)
		}
	})
}
