// Package extgen keeps schema/result.ext.schema.json complete: it walks the
// result's Go types (internal/result, by reflection) beside the schema and
// names every JSON field the schema's objects lack (Missing, which
// TestExtensionSchemaIsComplete fails on), or adds each one with the
// schema its Go type implies and its Go doc comment as description (Fill,
// which `go generate ./schema` runs). What the schema says by hand (ranges,
// enums, patterns, the contract's $defs) it keeps, in its order; a field it
// adds is optional, so a result written before the field validates still.
package extgen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// branches is n and every schema it applies to the same value: the
// targets of $ref and the branches of allOf, anyOf and oneOf, recursively.
func branches(root, n *Obj) []*Obj {
	out := []*Obj{n}
	if ref, ok := n.Get("$ref").(string); ok {
		if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
			if def := root.Obj("$defs").Obj(name); def != nil {
				out = append(out, branches(root, def)...)
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := n.Get(k).([]any)
		for _, b := range list {
			if bn, ok := b.(*Obj); ok {
				out = append(out, branches(root, bn)...)
			}
		}
	}
	return out
}

// properties is the union of the properties n's branches list (a later
// branch's schema of the same field is as good), and the first branch
// that lists any: where a field n lacks goes.
func properties(root, n *Obj) (map[string]*Obj, *Obj) {
	props := map[string]*Obj{}
	var first *Obj
	for _, b := range branches(root, n) {
		p := b.Obj("properties")
		if p == nil {
			continue
		}
		if first == nil {
			first = p
		}
		for _, k := range p.Keys {
			if vn, ok := p.Vals[k].(*Obj); ok {
				props[k] = vn
			}
		}
	}
	return props, first
}

// sub is the schema n's branches give key (items, additionalProperties).
func sub(root, n *Obj, key string) *Obj {
	for _, b := range branches(root, n) {
		if s := b.Obj(key); s != nil {
			return s
		}
	}
	return nil
}

// A Field is one JSON field of a struct type.
type Field struct {
	Name      string
	Type      reflect.Type
	OmitEmpty bool
	Owner     reflect.Type // the struct that declares it (an embedded one's own)
	GoName    string
}

// Fields are the JSON fields of a struct type, embedded structs flattened
// as encoding/json does.
func Fields(t reflect.Type) []Field {
	var out []Field
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			out = append(out, Fields(ft)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, Field{name, f.Type, strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,"), t, f.Name})
	}
	return out
}

// A walker visits every struct field of a Go type (by its path in the
// JSON) beside the schema of its JSON, descending into the fields the
// schema lists; lack is called for one it does not list, with the object
// the field would go in and the property before it, and open for a struct
// whose schema lists no properties at all. It descends only where the
// schema does; Node, which writes a missing field's schema, does not stop
// on a recursive Go type (the result has none).
type walker struct {
	root *Obj
	seen map[string]bool
	lack func(path string, f Field, into *Obj, after string) error
	open func(path string) error // a struct whose schema lists no properties
}

func (w *walker) walk(t reflect.Type, n *Obj, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		return w.walk(t.Elem(), sub(w.root, n, "items"), path+"[]")
	case reflect.Map:
		return w.walk(t.Elem(), sub(w.root, n, "additionalProperties"), path+"{}")
	case reflect.Struct:
	default:
		return nil
	}
	if w.seen[path] {
		return nil
	}
	w.seen[path] = true
	props, into := properties(w.root, n)
	if into == nil {
		return w.open(path)
	}
	after := ""
	for _, f := range Fields(t) {
		p := path + "." + f.Name
		s, ok := props[f.Name]
		if !ok {
			if err := w.lack(p, f, into, after); err != nil {
				return err
			}
			if _, now := into.Vals[f.Name]; now {
				after = f.Name
			}
			continue
		}
		if _, here := into.Vals[f.Name]; here {
			after = f.Name
		}
		if err := w.walk(f.Type, s, p); err != nil {
			return err
		}
	}
	return nil
}

// Missing names every JSON field of t (walked by reflection, with every
// type inside it) that its object in the schema does not list among its
// properties, by its path (result.variants[].latency.empty_max_ns).
func Missing(schema *Obj, t reflect.Type, name string) []string {
	var out []string
	w := &walker{root: schema, seen: map[string]bool{},
		lack: func(p string, _ Field, _ *Obj, _ string) error { out = append(out, p); return nil },
		open: func(p string) error {
			out = append(out, p+" (an object the schema lists no properties of)")
			return nil
		},
	}
	_ = w.walk(t, schema, name)
	return out
}

// Docs is the description of a field: its Go doc comment, or "".
type Docs func(owner reflect.Type, goName string) string

// Fill adds to the schema every field Missing names, each after the field
// before it in the Go type, with the schema its Go type implies (Node) and
// its doc as description. It returns the paths it added.
func Fill(schema *Obj, t reflect.Type, name string, docs Docs) ([]string, error) {
	var added []string
	w := &walker{root: schema, seen: map[string]bool{},
		lack: func(p string, f Field, into *Obj, after string) error {
			n, err := fieldNode(f, docs)
			if err != nil {
				return fmt.Errorf("%s: %v", p, err)
			}
			into.Set(f.Name, n, after)
			added = append(added, p)
			return nil
		},
		open: func(p string) error {
			return fmt.Errorf("%s: an object the schema lists no properties of; write its schema by hand", p)
		},
	}
	return added, w.walk(t, schema, name)
}

// fieldNode is the schema of a field: its type's, described by its doc.
func fieldNode(f Field, docs Docs) (*Obj, error) {
	n, err := Node(f.Type, f.OmitEmpty, docs)
	if err != nil || docs == nil {
		return n, err
	}
	if d := docs(f.Owner, f.GoName); d != "" {
		n.Keys = append([]string{"description"}, n.Keys...)
		n.Vals["description"] = d
	}
	return n, nil
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// Node is the schema of a Go type as encoding/json writes it: a field
// without omitempty whose type can be nil (a pointer, a slice, a map) may
// be null; a struct is a closed object whose fields without omitempty are
// required, each described by docs. A type that marshals itself, or an
// interface, has no schema Node can know.
func Node(t reflect.Type, omitempty bool, docs Docs) (*Obj, error) {
	nullable := false
	for t.Kind() == reflect.Pointer {
		nullable = !omitempty
		t = t.Elem()
	}
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return nil, fmt.Errorf("%s marshals itself: write its schema by hand", t)
	}
	n := &Obj{Vals: map[string]any{}}
	typ, unsigned := "", false
	switch t.Kind() {
	case reflect.Bool:
		typ = "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		typ = "integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		typ, unsigned = "integer", true
	case reflect.Float32, reflect.Float64:
		typ = "number"
	case reflect.String:
		typ = "string"
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			typ = "string" // base64
			break
		}
		typ, nullable = "array", nullable || t.Kind() == reflect.Slice && !omitempty
		items, err := Node(t.Elem(), false, docs)
		if err != nil {
			return nil, err
		}
		n.Set("items", items, "")
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: a map whose keys are not strings", t)
		}
		typ, nullable = "object", nullable || !omitempty
		v, err := Node(t.Elem(), false, docs)
		if err != nil {
			return nil, err
		}
		n.Set("additionalProperties", v, "")
	case reflect.Struct:
		typ = "object"
		props := &Obj{Vals: map[string]any{}}
		var required []any
		for _, f := range Fields(t) {
			fn, err := fieldNode(f, docs)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", f.Name, err)
			}
			props.Set(f.Name, fn, "")
			if !f.OmitEmpty {
				required = append(required, f.Name)
			}
		}
		if len(required) > 0 {
			n.Set("required", required, "")
		}
		n.Set("properties", props, "")
		n.Set("additionalProperties", false, "")
	default:
		return nil, fmt.Errorf("%s has no JSON schema Node knows", t)
	}
	n.Keys = append([]string{"type"}, n.Keys...)
	n.Vals["type"] = typ
	if nullable {
		n.Vals["type"] = []any{typ, "null"}
	}
	if unsigned {
		n.Set("minimum", json.Number("0"), "type")
	}
	return n, nil
}
