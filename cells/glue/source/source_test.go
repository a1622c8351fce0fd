package source

import (
	"go/ast"
	"reflect"
	"strings"
	"testing"
)

// parse splits and parses code as the Go segment of cell seq starting at
// line 1.
func parse(t *testing.T, seq int, code string) []*Parsed {
	t.Helper()
	items, err := Parse(seq, SplitItems(Segment{Text: code, Line: 1}))
	if err != nil {
		t.Fatalf("Parse(%q): %v", code, err)
	}
	return items
}

// first is the first finding of check in the items of code: its line
// (0 if none) and message.
func first(t *testing.T, code string, check func(*Parsed) (int, string)) (line int, msg string) {
	t.Helper()
	for _, pi := range parse(t, 1, code) {
		if l, m := check(pi); l > 0 {
			return l, m
		}
	}
	return 0, ""
}

func TestSplitCellKeepsABangInsideAnExpressionGo(t *testing.T) {
	code := "x := 1\n!echo hi\nok := x == 1 &&\n\t!false\n  ! ls"
	want := []Segment{
		{Text: "x := 1", Line: 1},
		{Shell: true, Text: "echo hi", Line: 2},
		{Text: "ok := x == 1 &&\n\t!false", Line: 3},
		{Shell: true, Text: "ls", Line: 5},
	}
	if got := SplitCell(code); !reflect.DeepEqual(got, want) {
		t.Errorf("SplitCell = %+v, want %+v", got, want)
	}
}

func TestSplitItems(t *testing.T) {
	code := "import \"fmt\"\n// twice doubles.\nfunc twice(x int) int { return 2 * x }\nfunc (p P) M() {}\nfor i := 0; i < 3; i++ {\n\tfmt.Println(i)\n}\nf := func() {}; f()\ntype P struct{}"
	type want struct {
		kind      Kind
		text      string
		line, col int
		doc       string
	}
	items := SplitItems(Segment{Text: code, Line: 4})
	wants := []want{
		{KindImport, `import "fmt"`, 4, 1, ""},
		{KindDecl, "func twice(x int) int { return 2 * x }", 6, 1, "// twice doubles."},
		{KindDecl, "func (p P) M() {}", 7, 1, ""},
		{KindStmt, "for i := 0; i < 3; i++ {\n\tfmt.Println(i)\n}", 8, 1, ""},
		{KindStmt, "f := func() {}", 11, 1, ""},
		{KindStmt, "f()", 11, 17, ""},
		{KindDecl, "type P struct{}", 12, 1, ""},
	}
	if len(items) != len(wants) {
		t.Fatalf("got %d items, want %d: %+v", len(items), len(wants), items)
	}
	for i, w := range wants {
		it := items[i]
		if it.Kind != w.kind || it.Text != w.text || it.Line != w.line || it.Col != w.col || it.Doc != w.doc {
			t.Errorf("item %d = %+v, want %+v", i, it, w)
		}
	}
}

func TestParsePositionsAreCellPositions(t *testing.T) {
	items := parse(t, 3, "x := 1\ny := x +\n\t2")
	if n, line := CellLine(items[1].Fset.Position(items[1].Stmt.Pos()).Line); n != 3 || line != 2 {
		t.Errorf("y's statement is at cell %d line %d, want cell 3 line 2", n, line)
	}
	_, err := Parse(3, SplitItems(Segment{Text: "x := 1\ny := )", Line: 1}))
	if err == nil || !strings.Contains(err.Error(), ":300002:") {
		t.Errorf("syntax error %v, want one at the encoded line 300002", err)
	}
}

func TestDeclared(t *testing.T) {
	var got []Decl
	for _, pi := range parse(t, 1, "// a counter\nn := 0\nfunc f(a int) (b int) { return a }\nconst c, d = 1, 2\nvar _ = 3\ntype T int\nfunc (T) M() {}") {
		got = append(got, pi.Declared()...)
	}
	want := []Decl{
		{Name: "n", Kind: DeclDefine, Line: 2, Sig: "n := 0", Doc: "// a counter"},
		{Name: "f", Kind: DeclFunc, Line: 3, Sig: "func f(a int) (b int)"},
		{Name: "c", Kind: DeclConst, Line: 4, Sig: "const c, d = 1, 2"},
		{Name: "d", Kind: DeclConst, Line: 4, Sig: "const c, d = 1, 2"},
		{Name: "T", Kind: DeclType, Line: 6, Sig: "type T int"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Declared = %+v\nwant %+v", got, want)
	}
}

func TestUnsupported(t *testing.T) {
	tests := []struct {
		code string
		line int
		msg  string // a part of the message, "" for none
	}{
		{"x := 1\ndefer f()", 2, "defer at the top level"},
		{"m := map[int]int{}\nv, ok := m[1]", 2, "comma-ok"},
		{"var v, ok = <-c", 1, "comma-ok"},
		{"func main() {}", 1, "func main"},
		{"if v, ok := m[1]; ok {\n}", 0, ""},
		{"func (T) main() {}", 0, ""},
	}
	for _, tc := range tests {
		line, msg := first(t, tc.code, (*Parsed).Unsupported)
		if line != tc.line || !strings.Contains(msg, tc.msg) {
			t.Errorf("%q: Unsupported = %d, %q; want %d, %q", tc.code, line, msg, tc.line, tc.msg)
		}
	}
}

func TestUnsupportedRange(t *testing.T) {
	kinds := map[string]reflect.Kind{"n": reflect.Int, "seq": reflect.Func}
	kind := func(id *ast.Ident) reflect.Kind { return kinds[id.Name] }
	tests := []struct {
		code string
		line int
		msg  string
	}{
		{"for i := range 10 {\n}", 1, "range over an integer"},
		{"x := 1\nfor range len(s) + 1 {\n}", 2, "range over an integer"},
		{"for i := range n {\n}", 1, "range over an integer"},
		{"for v := range seq {\n}", 1, "range over a function"},
		{"for range func(func() bool) {} {\n}", 1, "range over a function"},
		{"for i := range xs {\n}", 0, ""},
		{"func f(n []int) {\n\tfor range n {\n\t}\n}", 0, ""}, // a local n
	}
	for _, tc := range tests {
		line, msg := first(t, tc.code, func(pi *Parsed) (int, string) { return pi.UnsupportedRange(kind) })
		if line != tc.line || !strings.Contains(msg, tc.msg) {
			t.Errorf("%q: UnsupportedRange = %d, %q; want %d, %q", tc.code, line, msg, tc.line, tc.msg)
		}
	}
	if line, msg := parse(t, 1, "x := 0\nfor i := range xs {\n}")[1].AnyRange(); line != 2 || msg == "" {
		t.Errorf("AnyRange = %d, %q; want line 2", line, msg)
	}
}

func TestShapes(t *testing.T) {
	var got []Shape
	for _, pi := range parse(t, 1, "type P struct {\n\tX   int\n}\nfunc (p *P) Get() int { return p.X }\nfunc f() {}") {
		got = append(got, pi.Shapes()...)
	}
	want := []Shape{
		{Key: "type P", Src: "P struct { X int }", Line: 1},
		{Key: "method P.Get", Src: "func (p *P) Get() int { return p.X }", Line: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Shapes = %+v, want %+v", got, want)
	}
}

// scope answers the rewrites as a session where k is a declared const and
// math.Pi a package constant.
type scope struct{}

func (scope) Declared(name string) DeclKind {
	if name == "k" {
		return DeclConst
	}
	return ""
}

func (scope) PackageConst(pkg, sel string) bool { return pkg == "math" && sel == "Pi" }

func TestRewrite(t *testing.T) {
	tests := []struct{ code, want string }{
		{"go f(x, 1)", "__glue.Go(f, x, 1)"},
		{"go f(xs...)", "__glue.GoSlice(f, xs)"},
		{"go func() { g() }()", "{ __glue_f := func() { g() }; __glue.Go(__glue_f) }"},
		{"go println(k, math.Pi, x+1)", "{ __glue_a2 := x+1; __glue.GoFunc(func() { println(k, math.Pi, __glue_a2) }) }"},
		{"for i, v := range xs {\n\tgo use(i, v)\n}", "for i, v := range xs { __glue_i1, __glue_v2 := i, v;\n\t__glue.Go(use, __glue_i1, __glue_v2)\n}"},
		{"for i := range xs {\n\tsum += i\n}", "for i := range xs {\n\tsum += i\n}"},
		{"go f(func() {\n\tgo g()\n})", "__glue.Go(f, func() {\n\t__glue.Go(g)\n})"},
	}
	for _, tc := range tests {
		pi := parse(t, 1, tc.code)[0]
		if got := Rewrite(pi, scope{}); got != tc.want {
			t.Errorf("Rewrite(%q)\n = %q\nwant %q", tc.code, got, tc.want)
		}
	}
	pi := parse(t, 1, "func f() {\n\tgo g()\n}")[0]
	if got, want := RewriteNode(pi, scope{}, pi.Decls[0]), "func f() {\n\t__glue.Go(g)\n}"; got != want {
		t.Errorf("RewriteNode = %q, want %q", got, want)
	}
}

func TestInitCalls(t *testing.T) {
	replayed := map[string]bool{"bench.Get": true}
	tests := []struct {
		decl  string
		calls bool
	}{
		{"var a = 1 + len(xs)", false},
		{"var b = []int(nil)", false},
		{"var c = bench.Get(\"x\")", false},
		{"var d = f()", true},
		{"var e = <-ch", true},
		{"var g = func() int { return f() }", false},
		{"const h = 1", false},
	}
	for _, tc := range tests {
		pi := parse(t, 1, tc.decl)[0]
		if got := InitCalls(pi.Decls[0].(*ast.GenDecl), replayed); got != tc.calls {
			t.Errorf("InitCalls(%q) = %v, want %v", tc.decl, got, tc.calls)
		}
	}
}

// When g is declared again, f (which calls g) and h (which calls f) are
// recompiled, in order, but not the g just declared nor k.
func TestRelink(t *testing.T) {
	funcs := map[string]Func{
		"g": {Src: "func g() {}", Refs: map[string]bool{}},
		"f": {Src: "func f() { g() }", Refs: map[string]bool{"g": true}},
		"h": {Src: "func h() { f() }", Refs: map[string]bool{"f": true}},
		"k": {Src: "func k() {}", Refs: map[string]bool{"x": true}},
	}
	fresh := map[string]Func{"g": {Src: "func g() { println() }", Refs: map[string]bool{"println": true}}}
	want := "package main;func f() { g() }\nfunc h() { f() }\n"
	if got := Relink(funcs, fresh, map[string]bool{}); got != want {
		t.Errorf("Relink = %q, want %q", got, want)
	}
	if funcs["g"].Src != fresh["g"].Src {
		t.Errorf("funcs has g as %q, not the fresh one", funcs["g"].Src)
	}
	if got := Relink(funcs, map[string]Func{}, map[string]int{"y": 1}); got != "" {
		t.Errorf("a var nothing uses relinked %q", got)
	}
	if got := Relink(funcs, map[string]Func{}, map[string]int{"x": 1}); got != "package main;func k() {}\n" {
		t.Errorf("Relink of x = %q, want k", got)
	}
}
