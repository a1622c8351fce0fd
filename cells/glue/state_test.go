package glue

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
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
// roots and no scopes pushed in the package scopes (yaegi v0.16.1 kept them
// all, about 5 KB a cell of 1+1; issue 23, item 12).
func TestYaegiKeepsNoPrograms(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell[0]", "func f(x int) int { if x > 0 { return x }; return -x }")
	for i := 1; i <= 200; i++ {
		mustRun(t, s, fmt.Sprintf("Cell[%d]", i), fmt.Sprintf("f(%d) + 1", i))
	}
	roots, scopes, err := retained(s.machine().in)
	if err != nil {
		t.Fatal(err)
	}
	if roots != 0 || scopes != 0 {
		t.Errorf("after 200 cells the interpreter keeps %d roots and %d scopes", roots, scopes)
	}
	if res, _ := mustRun(t, s, "Cell[201]", "f(-5)"); plain(res) != "5" {
		t.Errorf("f(-5) = %s after the programs were dropped", plain(res))
	}
}
