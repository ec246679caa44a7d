package spec_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func TestJudgeBlocks_errors(t *testing.T) {
	tests := []struct {
		block, want, reason string
	}{
		{"model: 3\nbase_url: ftp://x\n", "suite.yaml:1:8: model: expected a string", "the first mistake in key order is reported"},
		{"base_url: ftp://x\n", `suite.yaml:1:11: base_url: base_url "ftp://x" is not an http(s) URL`, "only http(s) endpoints"},
		{"timeout: soon\n", `suite.yaml:1:10: timeout: timeout "soon" is not a duration`, "seconds or a Go duration"},
		{"modle: x\n", "suite.yaml:1:1: ", "an unknown key is placed"},
		{"output: yaml\n", "suite.yaml:1:9: output: ", "output is one of the modes"},
		{"max_tokens: -1\n", "suite.yaml:1:13: max_tokens: max_tokens must not be negative", "counts are not negative"},
		{"price: {input: 1, output: -2}\n", "suite.yaml:1:27: price.output: ", "prices are not negative"},
		{"- model: m\n", "suite.yaml:1:1: judge must be a map", "a block is a map"},
	}
	for _, tt := range tests {
		t.Run(tt.block, func(t *testing.T) {
			n, err := config.Parse("suite.yaml", []byte(tt.block))
			if err != nil {
				t.Fatal(err)
			}
			_, err = spec.JudgeBlocks(nil, n)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want one starting %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
}

func TestJudgeBlocks(t *testing.T) {
	n, err := config.Parse("suite.yaml", []byte("base_url: http://a/v1\nmodel: m\napi_key_env: K\ntemperature: null\ntimeout: 2m\nmax_retries: 0\nprice: {input: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bs, err := spec.JudgeBlocks(nil, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 {
		t.Fatalf("%d blocks, want 1: nil nodes are skipped", len(bs))
	}
	b := bs[0]
	switch {
	case b.BaseURL == nil || *b.BaseURL != "http://a/v1", b.Model == nil || *b.Model != "m", b.APIKeyEnv == nil || *b.APIKeyEnv != "K":
		t.Errorf("strings %+v: want each key that is set", b)
	case !b.NoTemperature || b.Temperature != nil:
		t.Errorf("temperature null must send none: %+v", b)
	case b.Timeout == nil || b.Timeout.Minutes() != 2, b.MaxRetries == nil || *b.MaxRetries != 0:
		t.Errorf("timeout and retries %+v: a zero that is written is set", b)
	case b.MaxTokens != nil || b.PriceOutput != nil || b.PriceInput == nil || *b.PriceInput != 1:
		t.Errorf("%+v: a key not written stays nil", b)
	}
}
