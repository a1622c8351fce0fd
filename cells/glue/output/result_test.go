package output

import (
	"errors"
	"go/constant"
	"testing"

	"github.com/benchbook/benchbook/stdlib/display"
)

type point struct{ X, Y int }

// figure shows itself.
type figure struct{}

func (figure) Bundle() map[string]any { return map[string]any{display.MIMESVG: "<svg/>"} }

func TestResultBundle(t *testing.T) {
	var nilPtr *point
	tests := []struct {
		name string
		vs   []any
		want map[string]any
	}{
		{"string as a Go literal", []any{"a\tb"}, map[string]any{display.MIMEText: `"a\tb"`}},
		{"struct with field names", []any{point{1, 2}}, map[string]any{display.MIMEText: "{X:1 Y:2}"}},
		{"several values", []any{1, nil, errors.New("boom")}, map[string]any{display.MIMEText: "1, nil, boom"}},
		{"nil pointer", []any{nilPtr}, map[string]any{display.MIMEText: "nil"}},
		{"func", []any{func(int) {}}, map[string]any{display.MIMEText: "<func(int)>"}},
		{"renderer", []any{figure{}}, map[string]any{display.MIMESVG: "<svg/>", display.MIMEText: "<output.figure>"}},
		{"renderer and a nil error", []any{figure{}, nil}, map[string]any{display.MIMESVG: "<svg/>", display.MIMEText: "<output.figure>"}},
	}
	for _, tc := range tests {
		got := ResultBundle(tc.vs, nil)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
	render := func(v any) (map[string]any, bool) {
		p, ok := v.(point)
		return map[string]any{display.MIMEHTML: "<b>point</b>", display.MIMEText: "P"}, ok && p.X == 1
	}
	if got := ResultBundle([]any{point{1, 2}}, render); got[display.MIMEHTML] != "<b>point</b>" || got[display.MIMEText] != "P" {
		t.Errorf("Render's bundle is not shown: %v", got)
	}
}

// The display package of cells publishes to its publisher, and the
// interpreter sees its constants as untyped constants.
func TestDisplayExports(t *testing.T) {
	pub := &recorder{}
	syms := DisplayExports(pub)[DisplayPath+"/display"]
	id := syms["HTML"].Interface().(func(string) string)("<b>x</b>")
	if len(pub.events) != 1 || pub.events[0] != "display:"+id {
		t.Errorf("HTML published %q, want one display %s", pub.events, id)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Update of an unknown kind did not panic")
			}
		}()
		syms["Update"].Interface().(func(string, string, any))(id, "nosuchkind", "x")
	}()
	if c, ok := syms["MIMEText"].Interface().(constant.Value); !ok || constant.StringVal(c) != display.MIMEText {
		t.Errorf("MIMEText = %v, want the constant %q", syms["MIMEText"], display.MIMEText)
	}
}
