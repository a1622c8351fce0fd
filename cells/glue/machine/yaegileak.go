package machine

import (
	"fmt"
	"go/token"
	"reflect"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// yaegi v0.16.1 keeps every program it compiles: Interpreter.roots gets the
// root of each one's tree, and each scope the scopes pushed inside it
// (scope.child), and neither is read but by its debugger, which sessions
// do not use (yaegi issue #1678, open). A cell of 1+1 kept about 5 KB of
// nodes, for ever: the glue process grew by 12 KB a cell in RSS (33 to 103
// MB over 3000 cells). dropCompiled empties both after each compilation;
// what a program still needs (its declarations in the package scope, its
// code reachable from its nodes) is referenced from elsewhere. It reaches
// the unexported fields with reflect and unsafe, checked by
// TestDropCompiled here and cells/glue's TestYaegiKeepsNoPrograms against
// the pinned version: a version that renames them makes Footprint fail
// rather than this fix silently stop.

// dropCompiled forgets the programs that in has compiled.
func dropCompiled(in *interp.Interpreter) {
	v := reflect.ValueOf(in).Elem()
	if roots, ok := field(v, "roots", reflect.Slice); ok {
		roots.SetLen(0)
	}
	scopes, ok := field(v, "scopes", reflect.Map)
	if !ok {
		return
	}
	for _, k := range scopes.MapKeys() {
		if sc := scopes.MapIndex(k); sc.Kind() == reflect.Pointer && !sc.IsNil() {
			if child, ok := field(sc.Elem(), "child", reflect.Slice); ok {
				child.SetLen(0)
			}
		}
	}
}

// Footprint is what an interpreter keeps of the programs it has compiled:
// what dropCompiled empties (Roots, and the Scopes pushed in the package
// scopes), the Slots of its global frame layout and the Sources of its
// FileSet. Neither grows with cells that declare nothing (the session's
// tests hold it).
type Footprint struct {
	Roots, Scopes, Slots, Sources int
}

// Footprint reads what the interpreter keeps; an error when its fields are
// not where expected (another yaegi version), since then dropCompiled and
// ForgetSources do nothing.
func (m *Machine) Footprint() (Footprint, error) {
	var fp Footprint
	var err error
	if fp.Roots, fp.Scopes, err = retained(m.in); err != nil {
		return fp, err
	}
	u, ok := field(reflect.ValueOf(m.in).Elem(), "universe", reflect.Pointer)
	if !ok {
		return fp, fmt.Errorf("yaegi's Interpreter has no field universe (a pointer)")
	}
	types, ok := field(u.Elem(), "types", reflect.Slice)
	if !ok {
		return fp, fmt.Errorf("yaegi's universe scope has no field types (a slice)")
	}
	fp.Slots = types.Len()
	fs := fileSet(m.in)
	if fs == nil {
		return fp, fmt.Errorf("yaegi's Interpreter has no field fset (a pointer): ForgetSources does nothing")
	}
	fs.Iterate(func(*token.File) bool { fp.Sources++; return true })
	return fp, nil
}

// retained counts what dropCompiled empties: the roots and the scopes kept
// by the package scopes; an error when the fields are not where expected.
func retained(in *interp.Interpreter) (roots, scopes int, err error) {
	v := reflect.ValueOf(in).Elem()
	r, ok := field(v, "roots", reflect.Slice)
	if !ok {
		return 0, 0, fmt.Errorf("yaegi's Interpreter has no field roots (a slice): dropCompiled does nothing")
	}
	m, ok := field(v, "scopes", reflect.Map)
	if !ok {
		return 0, 0, fmt.Errorf("yaegi's Interpreter has no field scopes (a map): dropCompiled does nothing")
	}
	for _, k := range m.MapKeys() {
		sc := m.MapIndex(k)
		if sc.Kind() != reflect.Pointer || sc.IsNil() {
			continue
		}
		child, ok := field(sc.Elem(), "child", reflect.Slice)
		if !ok {
			return 0, 0, fmt.Errorf("yaegi's scope has no field child (a slice): dropCompiled does nothing")
		}
		scopes += child.Len()
	}
	return r.Len(), scopes, nil
}

// The interpreter's FileSet also keeps every source it compiled (about a
// kilobyte each with the line directives of a cell): fileSet reaches it, so
// that the session can remove the files of a statement that has run and
// left nothing behind that points into them (see ForgetSources).

// fileSet is the FileSet of in, or nil when it is not where expected.
func fileSet(in *interp.Interpreter) *token.FileSet {
	f, ok := field(reflect.ValueOf(in).Elem(), "fset", reflect.Pointer)
	if !ok {
		return nil
	}
	fs, _ := f.Interface().(*token.FileSet)
	return fs
}

// A declaration at the top level keeps the temporaries of its initializers
// in the global frame, after the slot of the var itself, for ever: a var
// declared again 50 times with a %bench result kept 50 results there. The
// slots a unit added are dead once it has run, but for the vars it
// declared: zeroTemps zeroes the others.

// frameData is the interpreter's global frame (settable), or false.
func frameData(in *interp.Interpreter) (reflect.Value, bool) {
	f, ok := field(reflect.ValueOf(in).Elem(), "frame", reflect.Pointer)
	if !ok || f.IsNil() {
		return reflect.Value{}, false
	}
	return field(f.Elem(), "data", reflect.Slice)
}

// FrameLen is the length of the global frame (0 when it cannot be read).
func (m *Machine) FrameLen() int {
	d, ok := frameData(m.in)
	if !ok {
		return 0
	}
	return d.Len()
}

// zeroTemps zeroes the slots of the global frame from from on, but those
// of the values in keep (the vars just declared).
func zeroTemps(in *interp.Interpreter, from int, keep []reflect.Value) {
	d, ok := frameData(in)
	if !ok {
		return
	}
	kept := map[uintptr]bool{}
	for _, v := range keep {
		if v.IsValid() && v.CanAddr() {
			kept[v.UnsafeAddr()] = true
		}
	}
	for i := from; i < d.Len(); i++ {
		slot, ok := d.Index(i).Interface().(reflect.Value)
		if !ok || !slot.IsValid() || !slot.CanSet() || (slot.CanAddr() && kept[slot.UnsafeAddr()]) {
			continue
		}
		slot.Set(reflect.Zero(slot.Type()))
	}
}

// field is v's unexported field name, settable, if it has kind.
func field(v reflect.Value, name string, kind reflect.Kind) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	f := v.FieldByName(name)
	if !f.IsValid() || f.Kind() != kind {
		return reflect.Value{}, false
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), true
}
