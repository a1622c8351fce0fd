package extgen

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

type probe struct {
	A     int            `json:"a"`
	Stats *stats         `json:"stats,omitempty"`
	Level *float64       `json:"level"`
	Tags  []string       `json:"tags"`
	Span  uint32         `json:"span,omitempty"`
	By    map[string]int `json:"by,omitempty"`
	B     string         `json:"b"`
}

type stats struct {
	// N is how many.
	N    int     `json:"n"`
	Mean float64 `json:"mean,omitempty"`
}

type self struct{}

func (self) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

func compile(t *testing.T, o *Obj) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(o.Marshal()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("s.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("s.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func valid(s *jsonschema.Schema, doc string) error {
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		panic(err)
	}
	return s.Validate(v)
}

// Fill adds what a hand-written schema lacks, after the field before it in
// the Go type, and keeps what it had (a range the Go type cannot say): the
// schema it writes takes a value encoding/json writes, with and without
// the new fields, and refuses a made-up field in the new object, a missing
// required one and a value of the wrong type.
func TestFill(t *testing.T) {
	hand := `{
  "type": "object",
  "required": [
    "a"
  ],
  "properties": {
    "a": {
      "type": "integer",
      "minimum": 1
    },
    "b": {
      "type": "string"
    }
  },
  "additionalProperties": false
}
`
	root, err := Parse([]byte(hand))
	if err != nil {
		t.Fatal(err)
	}
	if string(root.Marshal()) != hand {
		t.Fatalf("Parse and Marshal change a schema:\n%s", root.Marshal())
	}
	if m := Missing(root, reflect.TypeFor[probe](), "p"); strings.Join(m, " ") != "p.stats p.level p.tags p.span p.by" {
		t.Errorf("Missing: %v", m)
	}
	docs := func(owner reflect.Type, f string) string {
		if owner == reflect.TypeFor[stats]() && f == "N" {
			return "how many"
		}
		return ""
	}
	added, err := Fill(root, reflect.TypeFor[probe](), "p", docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 5 {
		t.Errorf("added %v", added)
	}
	if m := Missing(root, reflect.TypeFor[probe](), "p"); len(m) != 0 {
		t.Errorf("after Fill, Missing: %v", m)
	}
	out := string(root.Marshal())
	if !strings.Contains(out, `"minimum": 1`) || strings.Index(out, `"stats"`) > strings.Index(out, `"b"`) || strings.Index(out, `"a"`) > strings.Index(out, `"stats"`) {
		t.Errorf("Fill lost the hand-written range or the Go order:\n%s", out)
	}
	if !strings.Contains(out, `"description": "how many"`) {
		t.Errorf("no description from docs:\n%s", out)
	}
	s := compile(t, root)
	full, _ := json.Marshal(probe{A: 2, Stats: &stats{N: 3, Mean: 1.5}, Tags: []string{"x"}, Span: 4, By: map[string]int{"k": 1}, B: "b"})
	for _, doc := range []string{string(full), `{"a": 2, "b": "b", "level": null, "tags": null}`, `{"a": 2}`} {
		if err := valid(s, doc); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
	for _, doc := range []string{
		`{"a": 2, "stats": {"n": 1, "made_up": 1}}`,
		`{"a": 2, "stats": {"mean": 1}}`,
		`{"a": 2, "span": -1}`,
		`{"a": 2, "tags": [1]}`,
		`{"a": 0}`,
	} {
		if err := valid(s, doc); err == nil {
			t.Errorf("%s passed", doc)
		}
	}
}

// What Node cannot know it refuses by name, and Fill names the field.
func TestFillRefuses(t *testing.T) {
	type withSelf struct {
		S self `json:"s"`
	}
	root, _ := Parse([]byte(`{"type": "object", "properties": {}}`))
	if _, err := Fill(root, reflect.TypeFor[withSelf](), "w", nil); err == nil || !strings.Contains(err.Error(), "w.s") || !strings.Contains(err.Error(), "marshals itself") {
		t.Errorf("a type that marshals itself: %v", err)
	}
	type withAny struct {
		X any `json:"x"`
	}
	if _, err := Fill(root, reflect.TypeFor[withAny](), "w", nil); err == nil || !strings.Contains(err.Error(), "w.x") {
		t.Errorf("an interface: %v", err)
	}
	open, _ := Parse([]byte(`{"type": "object", "properties": {"s": {"type": "object"}}}`))
	if _, err := Fill(open, reflect.TypeFor[struct {
		S stats `json:"s"`
	}](), "w", nil); err == nil || !strings.Contains(err.Error(), "w.s") {
		t.Errorf("an object with no properties: %v", err)
	}
}
