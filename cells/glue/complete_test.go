package glue

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/benchbook/benchbook/stdlib/display"
)

// Requirement 9: completion and inspection.

func TestComplete(t *testing.T) {
	s, err := New(Options{
		Exports: interp.Exports{"example.com/nb/nb": {"Say": reflect.ValueOf(func(string) {}), "Sum": reflect.ValueOf(func(...float64) float64 { return 0 })}},
		Preload: map[string]string{"nb": "example.com/nb"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustRun(t, s, "Cell [1]", "myVariable := 1\nfunc myFunc() {}\ntype point struct{ Alpha, Beta int }\npt := point{1, 2}")
	tests := []struct {
		name       string
		code       string
		cursor     int // -1: end of code
		want       []string
		notWant    []string
		start, end int // -1: start of the word / end of code
	}{
		{"session names", "my", -1, []string{"myFunc", "myVariable"}, nil, 0, 2},
		{"package member", "x := strings.ToU", -1, []string{"ToUpper", "ToUpperSpecial"}, []string{"ToLower"}, 13, 16},
		{"preloaded export", "nb.S", -1, []string{"Say", "Sum"}, nil, 3, 4},
		{"display", "display.Mark", -1, []string{"Markdown"}, nil, 8, 12},
		{"keyword and builtin", "fu", -1, []string{"func"}, nil, 0, 2},
		{"builtin", "app", -1, []string{"append"}, nil, 0, 3},
		{"unsupported builtins are not offered", "ma", -1, []string{"make", "map"}, []string{"max"}, 0, 2},
		{"package names", "strc", -1, []string{"strconv"}, nil, 0, 4},
		{"fields of a global", "pt.Al", -1, []string{"Alpha"}, []string{"Beta"}, 3, 5},
		{"identifiers of the cell", "someLocal := 1\nsomeL", -1, []string{"someLocal"}, nil, 15, 20},
		{"word after the cursor is replaced", "myVa = 2", 2, []string{"myVariable"}, nil, 0, 4},
		{"code points, not bytes", "s := \"é\"; myV", -1, []string{"myVariable"}, nil, 10, 13},
		{"hidden helpers are not offered", "__gl", -1, nil, []string{"__glue"}, 0, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cursor := tc.cursor
			if cursor < 0 {
				cursor = len([]rune(tc.code))
			}
			got, start, end := s.Complete(tc.code, cursor)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("matches %v lack %q", got, w)
				}
			}
			for _, w := range tc.notWant {
				if slices.Contains(got, w) {
					t.Errorf("matches %v include %q", got, w)
				}
			}
			if start != tc.start || end != tc.end {
				t.Errorf("range [%d, %d), want [%d, %d)", start, end, tc.start, tc.end)
			}
		})
	}
}

func TestInspectUserDeclarations(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [4]", "x := 1\n// twice doubles its argument.\nfunc twice(x int) int {\n\treturn 2 * x\n}\ncount := 42")
	data, found := s.Inspect("twice(3)", 2)
	if !found {
		t.Fatal("twice not found")
	}
	text := data[display.MIMEText].(string)
	for _, want := range []string{"func twice(x int) int", "Cell [4], line 3", "twice doubles its argument."} {
		if !strings.Contains(text, want) {
			t.Errorf("inspect text lacks %q:\n%s", want, text)
		}
	}
	data, found = s.Inspect("count", 5)
	if !found || !strings.Contains(data[display.MIMEText].(string), "int = 42") {
		t.Errorf("count: found %v, %v", found, data)
	}
	if _, found := s.Inspect("nothingHere", 3); found {
		t.Error("an unknown name was found")
	}
	if _, found := s.Inspect("   ", 1); found {
		t.Error("blanks were found")
	}
}
