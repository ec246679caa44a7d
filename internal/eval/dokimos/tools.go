package dokimos

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonschema"
)

// A Tool is a tool definition: its name, description and argument schema.
type Tool struct {
	Name        string
	Description string
	Schema      map[string]any     // the parameters schema as written; nil when none
	compiled    *jsonschema.Schema // nil when Schema is nil
}

// refuseLoader keeps schemas self-contained: no file or network access.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schemas must be self-contained; cannot load %s", url)
}

// A SchemaError is a tool's schema that does not compile; Path leads to
// the offending value inside the schema.
type SchemaError struct {
	Tool string
	Path []string
	Msg  string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("invalid JSON Schema for tool %s: %s", e.Tool, e.Msg)
}

// compileSchema compiles one schema (a JSON value).
func compileSchema(tool string, schema any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	url := "urn:trajeval:tool:" + strings.ReplaceAll(tool, " ", "_")
	if err := c.AddResource(url, schema); err != nil {
		return nil, &SchemaError{Tool: tool, Msg: err.Error()}
	}
	s, err := c.Compile(url)
	if err == nil {
		return s, nil
	}
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			leaves := leafErrors(ve)
			if len(leaves) > 0 {
				// The first cause is the one to fix; the others are usually the
				// metaschema's alternatives for the same keyword.
				return nil, &SchemaError{Tool: tool, Path: leaves[0].path, Msg: leaves[0].String()}
			}
		}
	}
	return nil, &SchemaError{Tool: tool, Msg: strings.ReplaceAll(err.Error(), url, "the schema")}
}

// NewTool returns a tool definition. schema is the JSON Schema of its
// arguments in the JSON data model: an object, or true or false (nil: any
// arguments); one that does not compile is a [*SchemaError]. An empty
// name is an error.
func NewTool(name, description string, schema any) (*Tool, error) {
	if name == "" {
		return nil, errors.New("a tool definition has an empty name")
	}
	t := &Tool{Name: name, Description: description}
	t.Schema, _ = schema.(map[string]any)
	if schema != nil {
		var err error
		if t.compiled, err = compileSchema(name, schema); err != nil {
			return nil, err
		}
	}
	return t, nil
}

var printer = message.NewPrinter(language.English)

// A leaf is one failing instance location and its message.
type leaf struct {
	path []string
	msg  string
}

func (l leaf) String() string { return "at " + pointer(l.path) + ": " + l.msg }

func pointer(path []string) string {
	if len(path) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// leafErrors flattens a validation error to its innermost causes.
func leafErrors(e *jsonschema.ValidationError) []leaf {
	if len(e.Causes) == 0 {
		return []leaf{{path: e.InstanceLocation, msg: e.ErrorKind.LocalizedString(printer)}}
	}
	var out []leaf
	for _, c := range e.Causes {
		out = append(out, leafErrors(c)...)
	}
	return out
}

// validate checks args against t's schema; it returns the failures.
func (t *Tool) validate(args any, strict bool) []leaf {
	if args == nil {
		args = map[string]any{}
	}
	var out []leaf
	if t.compiled != nil {
		if err := t.compiled.Validate(args); err != nil {
			var ve *jsonschema.ValidationError
			if errors.As(err, &ve) {
				out = append(out, leafErrors(ve)...)
			} else {
				out = append(out, leaf{msg: err.Error()})
			}
		}
	}
	if strict {
		props, _ := t.Schema["properties"].(map[string]any)
		if m, ok := args.(map[string]any); ok {
			for _, k := range sortedKeys(m) {
				if _, ok := props[k]; !ok {
					out = append(out, leaf{path: []string{k}, msg: fmt.Sprintf("unexpected parameter %q (strict)", k)})
				}
			}
		}
	}
	return out
}

// Params returns the parameter names of the tool's schema, sorted, and the
// set of required ones.
func (t *Tool) params() (names []string, props map[string]any, required map[string]bool) {
	props, _ = t.Schema["properties"].(map[string]any)
	required = map[string]bool{}
	if rq, ok := t.Schema["required"].([]any); ok {
		for _, r := range rq {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	return sortedKeys(props), props, required
}

func toolNames(tools []*Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

func stepLabel(s *trajeval.Step, j int) string {
	n := s.Index
	if n == 0 {
		n = j + 1
	}
	return fmt.Sprintf("step %d %s", n, s.Name)
}
