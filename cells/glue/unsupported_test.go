package glue

import (
	"strings"
	"testing"
)

// Requirement 11: what yaegi v0.16.1 cannot run is reported as an error at
// its cell line, and the session survives.

func TestUnsupportedFeaturesAreClearErrors(t *testing.T) {
	tests := []struct {
		name, setup, code string
		wantName          string
		wantLine          int
		wantMsg           string
	}{
		{"range over an int literal", "", "x := 0\nfor i := range 10 {\n\tx += i\n}", ErrUnsupported, 2, "for i := 0; i < n; i++"},
		{"range over an int variable of an earlier cell", "n := 5", "for i := range n {\n\t_ = i\n}", ErrUnsupported, 1, "range over an integer"},
		{"range over an int variable of the same cell", "", "n := 5\nfor i := range n {\n\t_ = i\n}", ErrUnsupported, 2, "range over an integer or a function"},
		{"range over len()", "", "s := []int{1}\n\nfor i := range len(s) {\n\t_ = i\n}", ErrUnsupported, 3, "range over an integer"},
		{"range over a func", "func seq(yield func(int) bool) { yield(1) }", "for x := range seq {\n\t_ = x\n}", ErrUnsupported, 1, "range over a function"},
		{"generic slices.Max", "", "xs := []int{1, 3}\nslices.Max(xs)", ErrCompile, 2, "undefined: slices.Max"},
		{"generic slices.Sort", "", "xs := []int{3, 1}\nslices.Sort(xs)", ErrCompile, 2, "sort.Slice"},
		{"cgo", "", "import \"C\"", ErrUnsupported, 1, "cgo"},
		{"unsafe", "", "\nimport \"unsafe\"", ErrUnsupported, 2, "unsafe"},
		{"os/exec", "", "import \"os/exec\"", ErrUnsupported, 1, "! line"},
		{"unknown package", "", "import \"github.com/nope/nope\"", ErrUnsupported, 1, "not available"},
		{"builtin max", "", "x := 1\ny := max(x, 2)", ErrUnsupported, 2, "math.Max"},
		{"builtin clear", "", "m := map[int]int{}\nclear(m)", ErrUnsupported, 2, "clear"},
		{"top-level defer", "", "x := 1\ndefer fmt.Println(x)", ErrUnsupported, 2, "defer"},
		{"func main", "", "func helper() {}\nfunc main() {}", ErrUnsupported, 2, "func main"},
		{"comma-ok at the top level", "m := map[string]int{}", "v, ok := m[\"a\"]", ErrUnsupported, 1, "if v, ok := m[k]; ok"},
		{"var comma-ok at the top level", "var i any = 1", "var n, ok = i.(int)", ErrUnsupported, 1, "comma-ok"},
		{"import name clash", "import \"math/rand\"", "import \"crypto/rand\"", ErrCompile, 1, "under another name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Options{})
			if tc.setup != "" {
				mustRun(t, s, "Cell [1]", tc.setup)
			}
			_, e, _ := run(t, s, "Cell [2]", tc.code)
			if e == nil {
				t.Fatal("no error")
			}
			if e.Name != tc.wantName || e.Line != tc.wantLine || !strings.Contains(e.Value, tc.wantMsg) {
				t.Errorf("got %s at line %d: %q\nwant %s at line %d containing %q", e.Name, e.Line, e.Value, tc.wantName, tc.wantLine, tc.wantMsg)
			}
			res, _ := mustRun(t, s, "Cell [3]", "6 * 7")
			if plain(res) != "42" {
				t.Errorf("the session does not work after the error: %v", res)
			}
		})
	}
}

// The forms that work, so that the errors above stay specific.
func TestSupportedNeighbours(t *testing.T) {
	s := newSession(t, Options{})
	tests := []struct{ name, code, want string }{
		{"generic funcs shipped as source", "slices.Contains([]int{1, 2}, 2)", "true"},
		{"comma-ok in an if at the top level", "m := map[string]int{\"a\": 1}\ngot := 0\nif v, ok := m[\"a\"]; ok {\n\tgot = v\n}\ngot", "1"},
		{"type switch at the top level", "var i any = 2.5\nkind := \"\"\nswitch i.(type) {\ncase float64:\n\tkind = \"float\"\n}\nkind", `"float"`},
		{"comma-ok assignment at the top level", "c := make(chan int, 1)\nc <- 4\nvar v int\nvar ok bool\nv, ok = <-c\nok && v == 4", "true"},
		{"user-defined generic func", "func Max[T int | float64](a, b T) T {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\nMax(2, 3)", "3"},
		{"a user variable named max", "max := 3\nmax + 1", "4"},
		{"sort instead of slices.Sort", "xs := []int{3, 1, 2}\nsort.Ints(xs)\nxs", "[1 2 3]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := mustRun(t, s, "Cell [1]", tc.code)
			if got := plain(res); got != tc.want {
				t.Errorf("result %q, want %q", got, tc.want)
			}
		})
	}
}

// The interpreter keeps the first declaration of a type or method: running
// the same declaration again is fine, changing it is an error.
func TestTypeRedeclaration(t *testing.T) {
	s := newSession(t, Options{})
	decl := "type P struct{ X int }\nfunc (p P) Get() int { return p.X }"
	mustRun(t, s, "Cell [1]", decl)
	res, _ := mustRun(t, s, "Cell [1]", decl+"\nP{4}.Get()")
	if plain(res) != "4" {
		t.Errorf("re-running the same declarations: %v", res)
	}
	for _, tc := range []struct {
		code, want string
		line       int
	}{
		{"x := 1\ntype P struct{ X, Y int }", "type P is already declared (Cell [1])", 2},
		{"func (p P) Get() int { return -p.X }", "method P.Get is already declared (Cell [1])", 1},
	} {
		_, e, _ := run(t, s, "Cell [2]", tc.code)
		if e == nil || e.Name != ErrUnsupported || e.Line != tc.line || !strings.Contains(e.Value, tc.want) {
			t.Errorf("%q: got %v, want an error at line %d containing %q", tc.code, e, tc.line, tc.want)
		}
	}
	res, _ = mustRun(t, s, "Cell [3]", "func (p *P) Set(x int) { p.X = x }\np := &P{}\np.Set(9)\np.Get()")
	if plain(res) != "9" {
		t.Errorf("a new method on an existing type: %v", res)
	}
}
