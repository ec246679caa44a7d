package builtin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func TestTau2_suite(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		status trajeval.Status
		reason string
	}{
		{"action by value", "type: tau2_action\nactions: [{name: get_product, arguments: {product_id: SKU-2}}]\n", trajeval.StatusPass,
			"some call has the name and exactly these arguments"},
		{"action compare_args", "type: tau2_action\nactions: [{name: search_products, arguments: {query: shoes, limit: 3}, compare_args: [limit]}]\n", trajeval.StatusFail,
			"limit is compared, and the call has none"},
		{"action compare_args empty", "type: tau2_action\nactions: [{name: search_products, arguments: {query: shoes}, compare_args: []}]\n", trajeval.StatusPass,
			"the name alone"},
		{"communicate", "type: tau2_communicate\ncommunicate_info: [\"SKU-2 costs 89\"]\n", trajeval.StatusFail,
			"the trajectory has no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := build(t, tt.yaml, &spec.Env{})
			if err != nil {
				t.Fatal(err)
			}
			if r := c.Run(context.Background(), provenance(t)); r.Status != tt.status {
				t.Errorf("status %s, want %s: %s\n%+v", r.Status, tt.status, tt.reason, r.Details)
			}
		})
	}
}

func TestTau2_configErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"type: tau2_action\n", "tau2_action needs actions"},
		{"type: tau2_action\nactions: [{name: a, compare_arg: [x]}]\n", `unknown key "compare_arg"`},
		{"type: tau2_action\nactions: [{name: a, requestor: bot}]\n", `unknown value "bot"`},
		{"type: tau2_communicate\ncommunicate_info: [{a: 1}]\n", "expected a string"},
	}
	for _, tt := range tests {
		if _, err := build(t, tt.yaml, &spec.Env{}); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "suite.yaml:") {
			t.Errorf("%q: error %v, want one at its place containing %q", tt.yaml, err, tt.want)
		}
	}
}
