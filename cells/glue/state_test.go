package glue

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/benchbook/benchbook/cells/glue/machine"
)

// A host that adds up the deltas of StateChanges (as cells/gluechild does)
// has the session's whole State after every cell: declarations, a
// redefinition, a unit whose initializer panics (its entry taken back),
// statements, imports, and after a Restore into another session. Each delta
// goes through JSON, as it does between the processes.
func TestStateDeltasAddUpToTheWholeState(t *testing.T) {
	s := newSession(t, Options{})
	var kept State
	take := func(from *Session) {
		t.Helper()
		b, err := json.Marshal(from.StateChanges())
		if err != nil {
			t.Fatal(err)
		}
		var d State
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		kept.Apply(d)
		if want := from.State(); !reflect.DeepEqual(normal(kept), normal(want)) {
			t.Fatalf("the deltas add up to\n%+v\nwant\n%+v", kept, want)
		}
	}
	for i, code := range []string{
		"func f() int { return 1 }\nvar a = f()",
		"x := 3",
		`import "strings"`,
		"type T struct{ N int }\nfunc (t T) Twice() int { return 2 * t.N }",
		"func f() int { return 2 }",
		"var bad = func() int { panic(\"no\") }()",
		"x := 4\ny := x",
		"1+1",
	} {
		run(t, s, fmt.Sprintf("Cell[%d]", i+1), code)
		take(s)
	}
	if n := len(kept.History); n != 4 {
		t.Errorf("%d history entries, want 4 (the panicking unit taken back)", n)
	}
	s2 := newSession(t, Options{})
	rep := s2.Restore(context.Background(), kept, RestoreOptions{})
	if len(rep.Lost) != 2 || len(rep.Failed) != 0 {
		t.Errorf("Restore lost %v and failed %v; want x and y lost, nothing failed", rep.Lost, rep.Failed)
	}
	take(s2)
	if _, ok := kept.Names["x"]; ok {
		t.Error("x, defined by a statement, is still in the state after the replay")
	}
	mustRun(t, s2, "Cell[9]", "var b = f() * 10")
	take(s2)
	if res, _ := mustRun(t, s2, "Cell[10]", "T{N: b}.Twice() + a + len(strings.Fields(\"a b\"))"); plain(res) != "43" {
		t.Errorf("T{N: b}.Twice() + a + 2 = %s, want 43 (b = 20, a = 1)", plain(res))
	}
}

// normal makes empty and nil maps and slices compare equal.
func normal(st State) State {
	st.Delta, st.HistoryFrom, st.Gone = false, 0, nil
	b, _ := json.Marshal(st)
	var out State
	_ = json.Unmarshal(b, &out)
	return out
}

// The interpreter keeps no program once it has run: 200 cells leave no
// roots, no scopes pushed in the package scopes, no slot in the global
// frame and no source in the FileSet. On main yaegi v0.16.1 kept the roots
// and scopes (about 5 KB a cell of 1+1), three slots a cell of
// fmt.Sprint(f(i) * 2), which every run copied as the frame grew, and every
// source (issue 23, item 12).
func TestYaegiKeepsNoPrograms(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell[0]", "func f(x int) int { if x > 0 { return x }; return -x }\nfmt.Sprint(f(0))")
	m := s.machine()
	before := footprint(t, m)
	for i := 1; i <= 200; i++ {
		mustRun(t, s, fmt.Sprintf("Cell[%d]", i), fmt.Sprintf("fmt.Sprint(f(%d) * 2)", i))
	}
	after := footprint(t, m)
	if after.Roots != 0 || after.Scopes != 0 {
		t.Errorf("after 200 cells the interpreter keeps %d roots and %d scopes", after.Roots, after.Scopes)
	}
	if n := after.Slots - before.Slots; n > 0 {
		t.Errorf("200 cells of fmt.Sprint(f(i) * 2) added %d slots to the global frame", n)
	}
	if n := after.Sources - before.Sources; n > 0 {
		t.Errorf("200 cells of fmt.Sprint(f(i) * 2) left %d sources in the FileSet", n)
	}
	if res, _ := mustRun(t, s, "Cell[201]", "f(-5)"); plain(res) != "5" {
		t.Errorf("f(-5) = %s after the programs were dropped", plain(res))
	}
}

func footprint(t *testing.T, m *machine.Machine) machine.Footprint {
	t.Helper()
	fp, err := m.Footprint()
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// A var declared again is the new one for the funcs declared before (as
// the README says), and its old value is let go: 20 redeclarations of a 1
// MiB slice hold about 1 MiB, not 21. On main yaegi gave each declaration a
// new slot and kept the old ones with their values, and size() still read
// the first slice (a %bench result bound 50 times kept 50 results; issue
// 23, item 12).
func TestRedeclaredVarIsLetGo(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell[1]", "var big = make([]byte, 1<<20)\nfunc size() int { return len(big) }")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 1; i <= 20; i++ {
		mustRun(t, s, fmt.Sprintf("Cell[%d]", i+1), fmt.Sprintf("var big = make([]byte, 1<<20 + %d)", i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if res, _ := mustRun(t, s, "Cell[22]", "size()"); plain(res) != fmt.Sprint(1<<20+20) {
		t.Errorf("size() = %s, want the last big's %d", plain(res), 1<<20+20)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 10<<20 {
		t.Errorf("20 redeclarations of a 1 MiB var hold %.1f MiB more", float64(grew)/(1<<20))
	}
}
