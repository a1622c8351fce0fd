package glue

import (
	"fmt"
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
// TestYaegiKeepsNoPrograms against the pinned version: a version that
// renames them makes retained() fail rather than this fix silently stop.

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
