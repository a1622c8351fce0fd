package schema_test

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/schema"
)

// node is a schema object as decoded JSON.
type node = map[string]any

// schemaDoc is a decoded schema with its $defs, for $ref.
type schemaDoc struct{ root node }

func readSchema(t *testing.T, name string) schemaDoc {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var n node
	if err := json.Unmarshal(raw, &n); err != nil {
		t.Fatal(err)
	}
	return schemaDoc{n}
}

// branches is n and every schema it applies to the same value: the
// targets of $ref and the branches of allOf, anyOf and oneOf, recursively.
func (d schemaDoc) branches(n node) []node {
	out := []node{n}
	if ref, ok := n["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if def, _ := d.root["$defs"].(node)[name].(node); ok && def != nil {
			out = append(out, d.branches(def)...)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := n[k].([]any)
		for _, b := range list {
			if bn, ok := b.(node); ok {
				out = append(out, d.branches(bn)...)
			}
		}
	}
	return out
}

// sub is the union of what the branches of n say of key (properties,
// items, additionalProperties): for "properties", every property.
func (d schemaDoc) properties(n node) (map[string]node, bool) {
	props, any := map[string]node{}, false
	for _, b := range d.branches(n) {
		p, ok := b["properties"].(node)
		if !ok {
			continue
		}
		any = true
		for k, v := range p {
			if vn, ok := v.(node); ok {
				props[k] = vn // a later branch's schema of the same field is as good
			}
		}
	}
	return props, any
}

func (d schemaDoc) sub(n node, key string) node {
	for _, b := range d.branches(n) {
		if s, ok := b[key].(node); ok {
			return s
		}
	}
	return nil
}

// missing walks a Go type beside the schema of its JSON and names every
// field of a struct (by its path in the JSON) that the schema's object does
// not list among its properties.
func (d schemaDoc) missing(t reflect.Type, n node, path string, seen map[string]bool) []string {
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
		return d.missing(t.Elem(), d.sub(n, "items"), path+"[]", seen)
	case reflect.Map:
		return d.missing(t.Elem(), d.sub(n, "additionalProperties"), path+"{}", seen)
	case reflect.Struct:
	default:
		return nil
	}
	if seen[path] {
		return nil
	}
	seen[path] = true
	props, ok := d.properties(n)
	var out []string
	if !ok {
		return []string{path + " (an object the schema lists no properties of)"}
	}
	for _, f := range fields(t) {
		p := path + "." + f.name
		s, ok := props[f.name]
		if !ok {
			out = append(out, p)
			continue
		}
		out = append(out, d.missing(f.typ, s, p, seen)...)
	}
	return out
}

type field struct {
	name string
	typ  reflect.Type
}

// fields are the JSON fields of a struct type, embedded structs flattened
// as encoding/json does.
func fields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			out = append(out, fields(ft)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name, f.Type})
	}
	return out
}

// TestExtensionSchemaIsComplete: every JSON field of a result, walked by
// reflection over bench.Result and every type inside it, is a property of
// its object in result.ext.schema.json, so that a field added to the Go
// types and forgotten in the schema fails here.
func TestExtensionSchemaIsComplete(t *testing.T) {
	d := readSchema(t, "result.ext.schema.json")
	miss := d.missing(reflect.TypeFor[result.Result](), d.root, "result", map[string]bool{})
	slices.Sort(miss)
	for _, m := range miss {
		t.Errorf("%s is not in result.ext.schema.json", m)
	}
}

// The extension schema's objects are closed: a field no Go type writes, at
// the top, in a variant, in a series (a $ref) or in the cold series (which
// extends a series), is refused and named, while the same result without
// it passes.
func TestExtensionSchemaIsClosed(t *testing.T) {
	for _, where := range []string{"", "variants.0", "variants.0.series.interleaved", "variants.0.series.cold", "protocol", "conditions.machine"} {
		var r map[string]any
		raw, _ := json.Marshal(benchtest.Seed000(1))
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if err := schema.ValidateResult(r); err != nil {
			t.Fatalf("the synthetic result fails: %v", err)
		}
		var obj any = r
		for _, k := range strings.Split(where, ".") {
			switch o := obj.(type) {
			case map[string]any:
				if k != "" {
					obj = o[k]
				}
			case []any:
				obj = o[0]
			}
		}
		obj.(map[string]any)["made_up_field"] = 1
		if err := schema.ValidateResult(r); err == nil || !strings.Contains(err.Error(), "made_up_field") {
			t.Errorf("a made-up field in %q passed or was not named: %v", where, err)
		}
	}
}
