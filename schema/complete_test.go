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
	"github.com/benchbook/benchbook/schema/extgen"
)

// TestExtensionSchemaIsComplete: every JSON field of a result, walked by
// reflection over result.Result and every type inside it, is a property of
// its object in result.ext.schema.json, so that a field added to the Go
// types and not generated (go generate ./schema) fails here.
func TestExtensionSchemaIsComplete(t *testing.T) {
	raw, err := os.ReadFile("result.ext.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	root, err := extgen.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	miss := extgen.Missing(root, reflect.TypeFor[result.Result](), "result")
	slices.Sort(miss)
	for _, m := range miss {
		t.Errorf("%s is not in result.ext.schema.json: run go generate ./schema", m)
	}
	// What go generate writes back is the file as it is, so that a field it
	// adds is the only line of its diff.
	if got := root.Marshal(); string(got) != string(raw) {
		t.Errorf("result.ext.schema.json is not as go generate ./schema writes it (encoding/json's indent of two spaces)")
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
