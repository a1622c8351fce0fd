package complete

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"github.com/benchbook/benchbook/cells/glue/imports"
	"github.com/benchbook/benchbook/cells/glue/source"
	"github.com/benchbook/benchbook/stdlib/display"
)

// fake is a session whose cells imported strings and declared count (42)
// and pt (a point).
type fake struct{}

type point struct{ Alpha, Beta int }

func (fake) Imported(name string) string {
	if name == "strings" {
		return "strings"
	}
	return ""
}

func (fake) Packages() []string { return []string{"strings"} }

func (fake) Name(name string) (source.Decl, string, bool) {
	switch name {
	case "count":
		return source.Decl{Name: name, Kind: source.DeclDefine, Line: 2, Sig: "count := 42", Doc: "// count counts."}, "Cell [2]", true
	case "pt":
		return source.Decl{Name: name, Kind: source.DeclDefine, Line: 3, Sig: "pt := point{1, 2}"}, "Cell [2]", true
	}
	return source.Decl{}, "", false
}

func (fake) Names() []string { return []string{"count", "pt"} }

func (fake) Global(name string) (reflect.Value, bool) {
	switch name {
	case "count":
		return reflect.ValueOf(42), true
	case "pt":
		return reflect.ValueOf(point{1, 2}), true
	}
	return reflect.Value{}, false
}

// newCompleter completes for fake, with the standard library's
// documentation under root ("" for GOROOT's).
func newCompleter(root string) Completer {
	return Completer{Session: fake{}, Index: imports.New(stdlib.Symbols), Docs: source.NewDocs(root)}
}

func TestCompleteAgainstTheSession(t *testing.T) {
	s := newCompleter("")
	tests := []struct {
		code       string
		want       []string
		start, end int
	}{
		{"x := cou", []string{"count"}, 5, 8},
		{"strings.ToU", []string{"ToUpper", "ToUpperSpecial"}, 8, 11},
		{"pt.Al", []string{"Alpha"}, 3, 5},
		{"strc", []string{"strconv"}, 0, 4},
		{"a := \"é\"; cou", []string{"count"}, 10, 13},
		{"__gl", nil, 0, 4},
	}
	for _, tc := range tests {
		got, start, end := s.Complete(tc.code, len([]rune(tc.code)))
		if !slices.Equal(got, tc.want) || start != tc.start || end != tc.end {
			t.Errorf("Complete(%q) = %v [%d, %d), want %v [%d, %d)", tc.code, got, start, end, tc.want, tc.start, tc.end)
		}
	}
}

func TestInspectADeclaredName(t *testing.T) {
	data, found := newCompleter("").Inspect("count + 1", 2)
	if !found {
		t.Fatal("count not found")
	}
	text := data[display.MIMEText].(string)
	for _, want := range []string{"count := 42", "declared in Cell [2], line 2", "int = 42", "count counts."} {
		if !strings.Contains(text, want) {
			t.Errorf("inspect text lacks %q:\n%s", want, text)
		}
	}
}

func gorootHasSources(t *testing.T, s Completer) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(s.Docs.Goroot(), "src", "fmt", "print.go")); err != nil {
		t.Skip("GOROOT sources are absent")
	}
}

func TestInspectStandardLibrary(t *testing.T) {
	s := newCompleter("")
	gorootHasSources(t, s)
	data, found := s.Inspect("fmt.Println(x)", 6)
	if !found {
		t.Fatal("fmt.Println not found")
	}
	text := data[display.MIMEText].(string)
	for _, want := range []string{"func Println(a ...any) (n int, err error)", "Println formats using the default formats", "package fmt"} {
		if !strings.Contains(text, want) {
			t.Errorf("inspect text lacks %q:\n%s", want, text)
		}
	}
	if _, ok := data[display.MIMEMarkdown]; !ok {
		t.Error("no text/markdown")
	}
	data, found = s.Inspect("len(x)", 1)
	if !found || !strings.Contains(data[display.MIMEText].(string), "func len(v Type) int") {
		t.Errorf("len: found %v, %v", found, data)
	}
	data, found = s.Inspect("time.Second", 8)
	if !found || !strings.Contains(data[display.MIMEText].(string), "Second") {
		t.Errorf("time.Second: found %v, %v", found, data)
	}
}

func TestInspectWithoutGorootSources(t *testing.T) {
	s := newCompleter(t.TempDir())
	data, found := s.Inspect("fmt.Println", 6)
	if !found {
		t.Fatal("fmt.Println not found without sources")
	}
	text := data[display.MIMEText].(string)
	if !strings.Contains(text, noDoc) || !strings.Contains(text, "func Println(") {
		t.Errorf("want a signature and %q:\n%s", noDoc, text)
	}
}
