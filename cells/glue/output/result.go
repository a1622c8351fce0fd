package output

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/stdlib/display"
)

// ResultBundle is the execute_result of a final expression's values: the
// bundle that render gives (if any) or that of a display.Renderer,
// otherwise text/plain in Go form.
func ResultBundle(vs []any, render func(any) (map[string]any, bool)) map[string]any {
	// A (value, error) pair with a nil error shows the value: plot.Cold(r)
	// shows the figure, not its bytes and a nil.
	if len(vs) == 2 && vs[1] == nil && vs[0] != nil {
		if _, ok := richBundle(vs[0], render); ok {
			vs = vs[:1]
		}
	}
	if len(vs) == 1 {
		if b, ok := richBundle(vs[0], render); ok {
			out := make(map[string]any, len(b)+1)
			for k, v := range b {
				out[k] = v
			}
			if _, ok := out[display.MIMEText]; !ok {
				out[display.MIMEText] = fmt.Sprintf("<%T>", vs[0])
			}
			return out
		}
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = FormatValue(v)
	}
	return map[string]any{display.MIMEText: strings.Join(parts, ", ")}
}

// richBundle is the bundle of a value that shows itself.
func richBundle(v any, render func(any) (map[string]any, bool)) (map[string]any, bool) {
	if render != nil {
		if b, ok := render(v); ok && b != nil {
			return b, true
		}
	}
	if r, ok := v.(display.Renderer); ok {
		return r.Bundle(), true
	}
	return nil, false
}

// FormatValue shows a value as a Go programmer expects: strings as Go
// string literals, errors and Stringers by their text, structs with field
// names, everything else with %v.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return strconv.Quote(x)
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case []byte:
		return fmt.Sprintf("%v", x)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Func {
		return fmt.Sprintf("<%s>", rv.Type())
	}
	if (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Chan) && rv.IsNil() {
		return "nil"
	}
	return fmt.Sprintf("%+v", v)
}
