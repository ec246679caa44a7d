package settings

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/dokimos"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// ToolKeys are the keys every tool-definition evaluator takes.
var ToolKeys = []string{"tools", "tools_file"}

// Tools reads the tool definitions of an evaluator: tools, or
// tools_file relative to the suite's folder.
func Tools(n *config.Node, env *spec.Env) ([]*dokimos.Tool, error) {
	list, file := n.Get("tools"), n.Get("tools_file")
	switch {
	case list != nil && file != nil:
		return nil, file.Errorf("give tools or tools_file, not both")
	case file != nil:
		p, err := file.Str()
		if err != nil {
			return nil, err
		}
		path := p
		if !filepath.IsAbs(path) && env != nil && env.Dir != "" {
			path = filepath.Join(env.Dir, p)
		}
		data, err := config.ReadFile(path)
		if err != nil {
			return nil, file.Errorf("cannot read the tools file: %v", unwrapPath(err))
		}
		root, err := config.Parse(path, data)
		if err != nil {
			return nil, err
		}
		if root.Kind == config.Map {
			if t := root.Get("tools"); t != nil {
				root = t
			} else {
				return nil, root.Errorf("a tools file is a list of tools or {tools: [...]}")
			}
		}
		return parseTools(root)
	case list != nil:
		return parseTools(list)
	}
	return nil, n.Errorf("no tool definitions").With("give tools: [{name, description, parameters}] or tools_file: <path>")
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parseTools reads tool definitions from a list node and compiles their
// schemas.
func parseTools(n *config.Node) ([]*dokimos.Tool, error) {
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, n.Errorf("the list of tools is empty")
	}
	seen := map[string]*config.Node{}
	var out []*dokimos.Tool
	for _, it := range items {
		t, err := parseTool(it)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[t.Name]; dup {
			return nil, it.Errorf("tool %q is defined twice", t.Name).With("the other is at line %d", prev.Line)
		}
		seen[t.Name] = it
		out = append(out, t)
	}
	return out, nil
}

var toolDefKeys = []string{"name", "description", "parameters", "input_schema", "type", "function", "title", "annotations", "output_schema", "strict"}

func parseTool(n *config.Node) (*dokimos.Tool, error) {
	if n.Kind != config.Map {
		return nil, n.Errorf("a tool definition is a map {name, description, parameters}, got %s", n.Kind)
	}
	if err := n.Check(toolDefKeys...); err != nil {
		return nil, err
	}
	if fn := n.Get("function"); fn != nil { // OpenAI: {type: function, function: {...}}
		if fn.Kind != config.Map {
			return nil, fn.Errorf("function must be a map {name, description, parameters}")
		}
		n = fn
		if err := n.Check(toolDefKeys...); err != nil {
			return nil, err
		}
	}
	nm := n.Get("name")
	if nm == nil {
		return nil, n.Errorf("the tool has no name")
	}
	name, err := nm.Name()
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, nm.Errorf("the tool name is empty")
	}
	var desc string
	if d := n.Get("description"); d != nil && d.Kind != config.Null {
		if desc, err = d.Str(); err != nil {
			return nil, err
		}
	}
	var schema any
	sn, _ := n.First("parameters", "input_schema")
	if sn != nil && sn.Kind != config.Null {
		if sn.Kind != config.Map && sn.Kind != config.Bool {
			return nil, sn.Errorf("the schema of tool %s must be an object, got %s", name, sn.Kind)
		}
		schema = sn.Value()
	}
	t, err := dokimos.NewTool(name, desc, schema)
	var se *dokimos.SchemaError
	if errors.As(err, &se) {
		return nil, sn.At(se.Path...).Errorf("%s", se.Error())
	}
	return t, err
}
