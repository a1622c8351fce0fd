package imports

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// A name used without an import means the package of that name that has
// its selectors, as goimports would choose.
func TestResolvePicksThePackageThatHasTheSelectors(t *testing.T) {
	ix := stdlibIndex()
	tests := []struct {
		name string
		sels []string
		want string
	}{
		{"rand", []string{"Prime"}, "crypto/rand"},
		{"rand", []string{"Perm"}, "math/rand"},
		{"rand", []string{"IntN"}, "math/rand/v2"},
		{"rand", nil, "math/rand"}, // no major version suffix first
		{"strings", []string{"ToUpper"}, "strings"},
		{"slices", []string{"Contains"}, "slices"}, // the generic sources the interpreter ships
	}
	for _, tc := range tests {
		if got, ok := ix.Resolve(tc.name, tc.sels); !ok || got != tc.want {
			t.Errorf("Resolve(%q, %v) = %q, %v; want %q", tc.name, tc.sels, got, ok, tc.want)
		}
	}
	if p, ok := ix.Resolve("nosuchpackage", nil); ok {
		t.Errorf("Resolve of an unknown name = %q", p)
	}
	if p, ok := StdlibPackage("fmt"); !ok || p != "fmt" {
		t.Errorf("StdlibPackage(fmt) = %q, %v", p, ok)
	}
}

func TestIndexOfExports(t *testing.T) {
	ix := New(stdlib.Symbols, interp.Exports{
		"example.com/nb/nb":         {"Say": reflect.ValueOf(func(string) {}), "hidden": reflect.ValueOf(0)},
		"benchbook.local/glue/rt/r": {"Go": reflect.ValueOf(func() {})},
	})
	if !ix.Known("example.com/nb") || ix.Name("example.com/nb") != "nb" || !ix.Has("example.com/nb", "Say") {
		t.Errorf("the notebook package is not indexed as nb with Say")
	}
	if ix.Has("example.com/nb", "hidden") {
		t.Error("an unexported symbol is a member")
	}
	if !ix.Value("example.com/nb", "Say").IsValid() {
		t.Error("no value for nb.Say")
	}
	if ix.Known("benchbook.local/glue/rt") || slices.Contains(ix.Names(), "r") {
		t.Error("a session's own package is listed")
	}
	for _, p := range []string{"internal/cpu", "github.com/traefik/yaegi/interp"} {
		if ix.Known(p) {
			t.Errorf("%s is importable", p)
		}
	}
	if m := ix.Members("strings"); !slices.IsSorted(m) || !slices.Contains(m, "ToUpper") {
		t.Errorf("Members(strings) is not the sorted names with ToUpper: %v", m)
	}
	if got := ix.Paths("rand"); len(got) < 3 || got[0] != "math/rand" {
		t.Errorf("Paths(rand) = %v, math/rand first", got)
	}
}

func TestUnavailable(t *testing.T) {
	for p, want := range map[string]string{
		"C": "cgo", "unsafe": "unsafe", "os/exec": "! line", "example.com/x": "only the standard library",
	} {
		if got := Unavailable(p); !strings.Contains(got, want) {
			t.Errorf("Unavailable(%q) = %q, want it to say %q", p, got, want)
		}
	}
}
