package config

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"
)

// An Unmarshaler reads its own value from a node. It is the hook for
// settings whose shape is special: a word or a list, a map of user names,
// a nested evaluator. Errors it returns should be placed at n (or below).
type Unmarshaler interface {
	UnmarshalConfig(n *Node) error
}

var (
	unmarshalerType = reflect.TypeFor[Unmarshaler]()
	nodeType        = reflect.TypeFor[*Node]()
	durationType    = reflect.TypeFor[time.Duration]()
)

// Decode stores the map n into the struct that v points to. A field's key
// is its `config:"key"` tag, else its name in snake_case; `config:"-"`
// skips the field. The rules:
//  1. every key of n must be a field's key or one of known (keys another
//     layer reads); keys compare canonically (maxDurationMs =
//     max-duration-ms = max_duration_ms), an unknown key is an error with
//     the closest known key as its hint, and a key given twice under two
//     spellings is an error;
//  2. a key that is absent leaves its field as it was, so v's initial
//     values are the defaults; the tag option `required` makes absence an
//     error;
//  3. a field whose pointer type implements [Unmarshaler] reads itself;
//     a *Node field receives the node as it is;
//  4. strings take strings (the option `name` also takes an unquoted
//     number or boolean, as a tool called 2fa); booleans take true or
//     false; integers take whole numbers in their range; floats take
//     numbers; the option `nonnegative` refuses numbers below 0; the tag
//     `enum:"a,b"` restricts a string to those words, matched in any
//     spelling and stored as listed;
//  5. a [time.Duration] takes a string with a unit ("250ms", "1m30s");
//  6. a pointer is set only when its key is present and not null, so nil
//     means "not set";
//  7. structs decode recursively by these rules; slices take lists;
//     maps with string keys take maps whose keys are user data, never
//     respelled; an interface{} field takes the value in the JSON data
//     model (see [Node.Value]);
//  8. an embedded struct without a tag shares its fields' keys with the
//     outer struct.
//
// Every error is a *trajeval.SpecError placed at the offending key or
// value (file:line:col and the path from the file's root).
func Decode(n *Node, v any, known ...string) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("config.Decode: want a pointer to a struct, got %T", v)
	}
	return decodeStruct(n, rv.Elem(), known)
}

// A field is one decodable field of a struct.
type field struct {
	key      string
	index    []int
	required bool
	name     bool
	nonneg   bool
	enum     []string
}

var fieldCache sync.Map // reflect.Type → []field

// Keys returns the keys a struct type decodes, in field order, for
// listing a type's settings.
func Keys(t reflect.Type) []string {
	var out []string
	for _, f := range fields(t) {
		out = append(out, f.key)
	}
	return out
}

func fields(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("config")
		if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			continue
		}
		if sf.Anonymous && !hasTag && sf.Type.Kind() == reflect.Struct {
			for _, inner := range fields(sf.Type) {
				inner.index = append([]int{i}, inner.index...)
				out = append(out, inner)
			}
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		f := field{key: name, index: []int{i}}
		if f.key == "" {
			f.key = Canon(sf.Name) // MaxDurationMS → max_duration_ms
		}
		for o := range strings.SplitSeq(opts, ",") {
			switch o {
			case "required":
				f.required = true
			case "name":
				f.name = true
			case "nonnegative":
				f.nonneg = true
			}
		}
		if e, ok := sf.Tag.Lookup("enum"); ok {
			f.enum = strings.Split(e, ",")
		}
		out = append(out, f)
	}
	fieldCache.Store(t, out)
	return out
}

func decodeStruct(n *Node, v reflect.Value, known []string) error {
	if n.Kind != Map {
		return n.Errorf("expected a map, got %s", n.describe())
	}
	fs := fields(v.Type())
	allowed := make([]string, 0, len(fs)+len(known))
	for _, f := range fs {
		allowed = append(allowed, f.key)
	}
	if err := n.Check(append(allowed, known...)...); err != nil {
		return err
	}
	for _, f := range fs {
		val := n.Get(f.key)
		if val == nil {
			if f.required {
				return n.Errorf("missing %s", f.key).With("add %s: …", f.key)
			}
			continue
		}
		if err := decodeField(val, v.FieldByIndex(f.index), f); err != nil {
			return err
		}
	}
	return nil
}

func decodeField(n *Node, v reflect.Value, f field) error {
	switch {
	case v.Kind() == reflect.Pointer && v.Type().Implements(unmarshalerType):
		if n.Kind == Null {
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := p.Interface().(Unmarshaler).UnmarshalConfig(n); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case v.CanAddr() && v.Addr().Type().Implements(unmarshalerType):
		return v.Addr().Interface().(Unmarshaler).UnmarshalConfig(n)
	}
	switch t := v.Type(); {
	case t == nodeType:
		v.Set(reflect.ValueOf(n))
		return nil
	case t == durationType:
		s, err := n.Str()
		if err != nil {
			return n.Errorf("expected a duration such as 250ms or 1m30s, got %s", n.describe())
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return n.Errorf("invalid duration %q", s).With("write a number with a unit: 250ms, 1.5s, 2m")
		}
		if f.nonneg && d < 0 {
			return n.Errorf("must not be negative, got %s", s)
		}
		v.SetInt(int64(d))
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if n.Kind == Null {
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := decodeField(n, p.Elem(), f); err != nil {
			return err
		}
		v.Set(p)
	case reflect.String:
		var s string
		var err error
		switch {
		case len(f.enum) > 0:
			s, err = n.Enum(f.enum...)
		case f.name:
			s, err = n.Name()
		default:
			s, err = n.Str()
		}
		if err != nil {
			return err
		}
		v.SetString(s)
	case reflect.Bool:
		b, err := n.BoolValue()
		if err != nil {
			return err
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := n.Int()
		if err != nil {
			return err
		}
		if f.nonneg && i < 0 {
			return n.Errorf("must not be negative, got %s", n.Text)
		}
		if v.OverflowInt(i) {
			return n.Errorf("number %s is out of range", n.Text)
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		i, err := n.Int()
		if err != nil {
			return err
		}
		if i < 0 {
			return n.Errorf("must not be negative, got %s", n.Text)
		}
		if v.OverflowUint(uint64(i)) {
			return n.Errorf("number %s is out of range", n.Text)
		}
		v.SetUint(uint64(i))
	case reflect.Float32, reflect.Float64:
		x, err := n.Float()
		if err != nil {
			return err
		}
		if f.nonneg && x < 0 {
			return n.Errorf("must not be negative, got %s", n.Text)
		}
		if v.Kind() == reflect.Float32 && math.Abs(x) > math.MaxFloat32 {
			return n.Errorf("number %s is out of range", n.Text)
		}
		v.SetFloat(x)
	case reflect.Struct:
		return decodeStruct(n, v, nil)
	case reflect.Slice:
		items, err := n.List()
		if err != nil {
			return err
		}
		s := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, it := range items {
			if err := decodeField(it, s.Index(i), field{key: f.key, name: f.name, nonneg: f.nonneg, enum: f.enum}); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("config.Decode: map keys must be strings, got %s", v.Type())
		}
		entries, err := n.MapEntries()
		if err != nil {
			return err
		}
		m := reflect.MakeMapWithSize(v.Type(), len(entries))
		for _, e := range entries {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := decodeField(e.Value, ev, field{key: e.Key, name: f.name, nonneg: f.nonneg, enum: f.enum}); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(e.Key).Convert(v.Type().Key()), ev)
		}
		v.Set(m)
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return fmt.Errorf("config.Decode: cannot decode into %s", v.Type())
		}
		if val := n.Value(); val != nil {
			v.Set(reflect.ValueOf(val))
		}
	default:
		return fmt.Errorf("config.Decode: cannot decode into %s", v.Type())
	}
	return nil
}
