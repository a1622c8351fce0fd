package glue

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/benchbook/benchbook/cells/glue/source"
)

// The line directives of cells/glue/source name the interpreter's default
// source, in which it scopes a session's imports.
func TestDirectivesNameTheInterpretersSource(t *testing.T) {
	if source.SourceName != interp.DefaultSourceName {
		t.Errorf("source.SourceName = %q, yaegi's interp.DefaultSourceName = %q", source.SourceName, interp.DefaultSourceName)
	}
}

// Requirement 4: errors name the cell line, through the code the session
// adds or rewrites.

func TestErrorsNameTheCellLine(t *testing.T) {
	tests := []struct {
		name, code string
		wantName   string
		wantLine   int
		wantMsg    string
	}{
		{"undefined name", "x := 1\ny := 2\nz := w + x + y", ErrCompile, 3, "undefined: w"},
		{"undefined in a call argument", "import \"fmt\"\n\nfmt.Println(nope)", ErrCompile, 3, "undefined: nope"},
		{"undefined inside a func", "func f() int {\n\treturn 1\n}\nfunc g() int {\n\treturn missing\n}", ErrCompile, 5, "undefined: missing"},
		{"type error", "x := 1\nvar s string = x", ErrCompile, 2, "cannot use"},
		{"syntax error", "x := 1\ny := )", ErrSyntax, 2, "expected operand"},
		{"runtime panic", "a := []int{}\ni := 3\n_ = a[i]", ErrPanic, 3, "index out of range"},
		{"explicit panic after a go statement rewrite", "go func() {}()\n\npanic(\"stop here\")", ErrPanic, 3, "stop here"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Options{})
			_, e, _ := run(t, s, "Cell [7]", tc.code)
			if e == nil {
				t.Fatal("no error")
			}
			if e.Name != tc.wantName || e.Line != tc.wantLine || !strings.Contains(e.Value, tc.wantMsg) {
				t.Errorf("got %s at line %d: %q; want %s at line %d containing %q", e.Name, e.Line, e.Value, tc.wantName, tc.wantLine, tc.wantMsg)
			}
			if len(e.Traceback) == 0 || !strings.HasPrefix(e.Traceback[0], "Cell [7], line ") {
				t.Errorf("traceback %q does not start with the cell and line", e.Traceback)
			}
			// The session lives on.
			res, _ := mustRun(t, s, "Cell [8]", "40 + 2")
			if plain(res) != "42" {
				t.Errorf("cell after the error = %v", res)
			}
		})
	}
}

func TestPanicInAFuncOfAnEarlierCell(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "kept := 5\nfunc boom(n int) int {\n\tpanic(fmt.Sprint(\"kaboom \", n))\n}")
	_, e, _ := run(t, s, "Cell [2]", "x := 1\nboom(x)")
	if e == nil || e.Name != ErrPanic {
		t.Fatalf("got %v, want a panic", e)
	}
	if e.Line != 2 || !strings.Contains(e.Value, "kaboom 1") {
		t.Errorf("panic at line %d %q; want line 2, kaboom 1", e.Line, e.Value)
	}
	tb := strings.Join(e.Traceback, "\n")
	if !strings.Contains(tb, "in boom (declared in Cell [1])") {
		t.Errorf("traceback does not name boom and its cell:\n%s", tb)
	}
	res, _ := mustRun(t, s, "Cell [3]", "kept")
	if plain(res) != "5" {
		t.Errorf("state after the panic: kept = %v", res)
	}
}

func TestOsExitDoesNotEndTheProcess(t *testing.T) {
	s := newSession(t, Options{})
	_, e, _ := run(t, s, "Cell [1]", "os.Exit(3)")
	if e == nil || e.Name != ErrPanic || !strings.Contains(e.Value, "os.Exit(3)") {
		t.Fatalf("os.Exit: got %v, want a panic naming os.Exit(3)", e)
	}
	mustRun(t, s, "Cell [2]", "1")
}

// A panic in a statement (run as the body of a func, see units.go) is
// the cell's error and nothing else: no frame of the interpreter's leaks on
// stderr, and the traceback names no helper (jupyter_kernel_test's
// test_error wants exactly one output).
func TestStatementPanicIsOnlyTheError(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell[1]", "func boom() { panic(\"deep\") }")
	for _, code := range []string{`panic("boom")`, "x := 1\nboom()", "fmt.Sprint(1)\nboom()"} {
		_, e, pub := run(t, s, "Cell[2]", code)
		if e == nil {
			t.Fatalf("%q did not fail", code)
		}
		if got := pub.text("stderr"); got != "" {
			t.Errorf("%q wrote on stderr: %q", code, got)
		}
		if tb := strings.Join(e.Traceback, "\n"); strings.Contains(tb, "__glue") {
			t.Errorf("%q: the traceback names a helper:\n%s", code, tb)
		}
	}
}
