package otlp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

// TestFromTraces checks that spans handed over in memory give the
// trajectories the file reader gives, warnings included.
func TestFromTraces(t *testing.T) {
	for _, name := range []string{"genai.json", "uipath.json", "openinference.json"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/otlp/" + name)
			if err != nil {
				t.Fatal(err)
			}
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(data)
			if err != nil {
				t.Fatal(err)
			}
			var fromFile, fromMemory []string
			var warnFile, warnMemory int
			f, _ := os.Open("testdata/otlp/" + name)
			defer f.Close()
			in := trajeval.Input{Name: name, R: f, Warn: func(trajeval.Warning) { warnFile++ }}
			if err := otlp.JSON.Read(context.Background(), in, collect(&fromFile)); err != nil {
				t.Fatal(err)
			}
			in = trajeval.Input{Name: name, Warn: func(trajeval.Warning) { warnMemory++ }}
			if err := otlp.FromTraces(context.Background(), td, in, collect(&fromMemory)); err != nil {
				t.Fatal(err)
			}
			if len(fromFile) == 0 || len(fromFile) != len(fromMemory) || warnFile != warnMemory {
				t.Fatalf("file: %d trajectories, %d warnings; memory: %d, %d", len(fromFile), warnFile, len(fromMemory), warnMemory)
			}
			for i := range fromFile {
				if fromFile[i] != fromMemory[i] {
					t.Errorf("trajectory %d differs:\nfile   %s\nmemory %s", i, fromFile[i], fromMemory[i])
				}
			}
		})
	}
}

func collect(out *[]string) func(*trajeval.Trajectory) error {
	return func(t *trajeval.Trajectory) error {
		b, err := json.Marshal(t)
		*out = append(*out, string(b))
		return err
	}
}

// TestFromTraceList checks that the lines of a JSON Lines file handed
// over apart, in any order, give the trajectories the file gives: a
// conversation's turns are joined however they were gathered.
func TestFromTraceList(t *testing.T) {
	for _, name := range []string{"conversation.jsonl", "chat-turns.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/otlp/" + name)
			if err != nil {
				t.Fatal(err)
			}
			var tds []ptrace.Traces
			for line := range strings.Lines(string(data)) {
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(line))
				if err != nil {
					t.Fatal(err)
				}
				tds = append(tds, td)
			}
			slices.Reverse(tds)
			var fromFile, fromMemory []string
			f, _ := os.Open("testdata/otlp/" + name)
			defer f.Close()
			if err := otlp.JSON.Read(context.Background(), trajeval.Input{Name: name, R: f, Warn: func(trajeval.Warning) {}}, collect(&fromFile)); err != nil {
				t.Fatal(err)
			}
			if err := otlp.FromTraceList(context.Background(), tds, trajeval.Input{Name: name}, collect(&fromMemory)); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fromFile, fromMemory) {
				t.Errorf("file:\n%s\nmemory, lines reversed:\n%s", strings.Join(fromFile, "\n"), strings.Join(fromMemory, "\n"))
			}
		})
	}
}

func TestConversationKey(t *testing.T) {
	span := func(attrs ...string) string {
		var a []string
		for i := 0; i+1 < len(attrs); i += 2 {
			a = append(a, `{"key":"`+attrs[i]+`","value":{"stringValue":"`+attrs[i+1]+`"}}`)
		}
		return `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"f00000000000000` + fmt.Sprint(len(attrs)) + `","attributes":[` + strings.Join(a, ",") + `]}`
	}
	doc := func(resource []string, spans ...string) string {
		var a []string
		for i := 0; i+1 < len(resource); i += 2 {
			a = append(a, `{"key":"`+resource[i]+`","value":{"stringValue":"`+resource[i+1]+`"}}`)
		}
		return `{"resourceSpans":[{"resource":{"attributes":[` + strings.Join(a, ",") + `]},"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + `]}]}]}`
	}
	tests := []struct {
		name, doc, want, reason string
	}{
		{"none", doc(nil, span()), "", "a trace with no key is no conversation"},
		{"span", doc(nil, span(), span("gen_ai.conversation.id", "c1")), "c1", "any span may carry the key"},
		{"session", doc(nil, span("session.id", "s1")), "s1", "session.id stands in for gen_ai.conversation.id"},
		{"both", doc(nil, span("session.id", "s1", "gen_ai.conversation.id", "c1")), "c1", "gen_ai.conversation.id comes first"},
		{"resource", doc([]string{"session.id", "r1"}, span()), "r1", "the resource's key counts for its spans"},
		{"span before resource", doc([]string{"gen_ai.conversation.id", "r1"}, span("gen_ai.conversation.id", "c1")), "c1", "a span's own key wins over its resource's"},
		{"empty value", doc(nil, span("gen_ai.conversation.id", "")), "", "an empty id is none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := otlp.ConversationKey(td); got != tt.want {
				t.Errorf("ConversationKey = %q, want %q: %s", got, tt.want, tt.reason)
			}
		})
	}
}
