package machine

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func newMachine(t *testing.T) *Machine {
	t.Helper()
	m, err := New(Options{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Symbols: []interp.Exports{stdlib.Symbols}, Preload: map[string]string{"strings": "strings"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	return m
}

// run compiles and runs src, which must succeed.
func run(t *testing.T, m *Machine, src string) {
	t.Helper()
	p, err := m.Compile(context.Background(), src)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	if err, stuck := m.Execute(context.Background(), p, "test", func() {}); err != nil || stuck {
		t.Fatalf("Execute(%q): %v, stuck %v", src, err, stuck)
	}
}

// dropCompiled leaves no program in the pinned yaegi, and what the
// programs declared still works.
func TestDropCompiled(t *testing.T) {
	m := newMachine(t)
	for i := 0; i < 50; i++ {
		run(t, m, fmt.Sprintf("package main; func f%d() string { return strings.Repeat(\"x\", %d) }", i, i))
	}
	fp, err := m.Footprint()
	if err != nil {
		t.Fatal(err)
	}
	if fp.Roots != 0 || fp.Scopes != 0 {
		t.Errorf("after 50 programs the interpreter keeps %d roots and %d scopes", fp.Roots, fp.Scopes)
	}
	run(t, m, "package main; var n = len(f49())")
	if g, ok := m.Globals(); !ok || g["n"].Int() != 49 {
		t.Errorf("n = %v, want 49", g["n"])
	}
}

// A redeclared var's old slot is let go, and the sources of a run can be
// forgotten.
func TestReleaseAndForgetSources(t *testing.T) {
	m := newMachine(t)
	run(t, m, "package main; var big = make([]byte, 1<<10)")
	old := m.GlobalsNamed([]string{"big", "absent"})
	if len(old) != 1 {
		t.Fatalf("GlobalsNamed = %v, want big only", old)
	}
	run(t, m, "package main; var big = make([]byte, 1)")
	Release(old, map[string]bool{"big": true})
	if old["big"].Len() != 0 {
		t.Errorf("the old big holds %d bytes", old["big"].Len())
	}
	before, err := m.Footprint()
	if err != nil {
		t.Fatal(err)
	}
	base := m.SourceBase()
	run(t, m, "package main; var x = 1")
	m.ForgetSources(base, false)
	after, err := m.Footprint()
	if err != nil {
		t.Fatal(err)
	}
	if after.Sources != before.Sources {
		t.Errorf("%d sources before the run, %d after it was forgotten", before.Sources, after.Sources)
	}
}

// A cancelled interpreted loop stops: Execute returns its error, not stuck.
func TestExecuteStopsACancelledLoop(t *testing.T) {
	m := newMachine(t)
	run(t, m, "package main; func spin() { for { _ = 1 } }")
	p, err := m.Compile(context.Background(), ";spin()")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	woken := false
	err, stuck := m.Execute(ctx, p, "test", func() { woken = true })
	if err == nil || stuck || !woken {
		t.Errorf("Execute after a cancel = %v, stuck %v, woken %v; want an error, not stuck, woken", err, stuck, woken)
	}
}
