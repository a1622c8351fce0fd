package glue

import (
	"context"
	"sort"

	"github.com/benchbook/benchbook/cells/glue/source"
)

// State is what a session needs to rebuild itself in another process: the
// imports and declarations of its cells (the history a replay runs), the
// names they declared, the types and methods declared, and the labels of the cells that positions refer to. It
// holds sources and names only, never values, and encodes as JSON.
//
// A State is whole (from State or, after a Restore, StateChanges) or a delta
// (Delta set, from StateChanges): what changed since the previous
// StateChanges, which Apply adds to the whole state it follows. A host that
// keeps a session's state elsewhere takes only deltas after each cell, so
// that what a cell costs does not grow with the session.
type State struct {
	Delta   bool                 `json:"delta,omitempty"`
	Seq     int                  `json:"seq"`
	Labels  map[int]string       `json:"labels,omitempty"`
	Names   map[string]NameState `json:"names,omitempty"`
	Gone    []string             `json:"gone,omitempty"` // names a delta deletes
	Pkgs    map[string]string    `json:"pkgs,omitempty"`
	Dot     bool                 `json:"dot,omitempty"`
	History []HistoryEntry       `json:"history,omitempty"`
	// HistoryFrom is where a delta's History goes: the entries from there
	// on are replaced by it (a unit that failed takes its entry back).
	HistoryFrom int              `json:"history_from,omitempty"`
	Shapes      map[string]Shape `json:"shapes,omitempty"`
}

// NameState is a top-level name a cell declared.
type NameState struct {
	Kind  string `json:"kind"`
	Line  int    `json:"line"`
	Sig   string `json:"sig,omitempty"`
	Doc   string `json:"doc,omitempty"`
	Label string `json:"label"`
}

// HistoryEntry is an import (Src) or a unit of declarations (Items), as
// given to the interpreter.
type HistoryEntry struct {
	Label string          `json:"label"`
	Src   string          `json:"src,omitempty"`
	Names []string        `json:"names"`
	Items []HistoryItem   `json:"items,omitempty"`
	Funcs map[string]Func `json:"funcs,omitempty"` // the funcs it declares, for relinking
	Site  string          `json:"site,omitempty"`  // see Session.CallSite
	Inits int             `json:"inits,omitempty"` // func init declarations, never replayed
}

// HistoryItem is one declaration of a unit; Var marks a var declaration,
// Calls one whose initializer calls code.
type HistoryItem struct {
	Src   string   `json:"src"`
	Names []string `json:"names,omitempty"`
	Var   bool     `json:"var,omitempty"`
	Calls bool     `json:"calls,omitempty"`
}

// Func is the source of a func and the names its body uses.
type Func struct {
	Src  string   `json:"src"`
	Refs []string `json:"refs"`
}

// Shape is the source of a type or method declaration and its cell.
type Shape struct {
	Src   string `json:"src"`
	Label string `json:"label"`
}

// changes are what changed in a session's state since StateChanges last
// ran; guarded by Session.mu.
type changes struct {
	all                 bool // everything (a Restore replaced the state)
	names, pkgs, shapes map[string]bool
	gone                map[string]bool
	labels              map[int]bool
	history             int // entries already taken
}

// keepLabel marks the label of cell seq as one the state needs (its cell
// added to the history); called with mu held.
func (s *Session) keepLabel(seq int) {
	s.kept[seq] = true
	s.chg.labels[seq] = true
}

func newChanges() changes {
	return changes{names: map[string]bool{}, pkgs: map[string]bool{}, shapes: map[string]bool{},
		gone: map[string]bool{}, labels: map[int]bool{}}
}

// State returns a copy of the whole state, taken between cells or while
// one runs (what a running cell has declared so far is included).
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateLocked(nil)
}

// StateChanges returns what changed since its previous call (a delta), or
// the whole state the first time and after a Restore.
func (s *Session) StateChanges() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	chg := &s.chg
	if chg.all {
		chg = nil
	}
	st := s.stateLocked(chg)
	s.chg = newChanges()
	s.chg.history = len(s.history)
	return st
}

// stateLocked builds the state, or only what chg names; called with mu held.
func (s *Session) stateLocked(chg *changes) State {
	st := State{Delta: chg != nil, Seq: s.seq, Dot: s.dot, Labels: map[int]string{}, Names: map[string]NameState{},
		Pkgs: map[string]string{}, Shapes: map[string]Shape{}}
	for k := range s.kept {
		if chg == nil || chg.labels[k] {
			st.Labels[k] = s.labels[k]
		}
	}
	for k, v := range s.pkgs {
		if chg == nil || chg.pkgs[k] {
			st.Pkgs[k] = v
		}
	}
	for k, n := range s.names {
		if chg == nil || chg.names[k] {
			st.Names[k] = NameState{Kind: string(n.Kind), Line: n.Line, Sig: n.Sig, Doc: n.Doc, Label: n.label}
		}
	}
	if chg != nil {
		for k := range chg.gone {
			if _, ok := s.names[k]; !ok {
				st.Gone = append(st.Gone, k)
			}
		}
		sort.Strings(st.Gone)
	}
	from := 0
	if chg != nil {
		from = min(chg.history, len(s.history))
		st.HistoryFrom = from
	}
	for _, h := range s.history[from:] {
		st.History = append(st.History, h.export())
	}
	for k, sh := range s.shapes {
		if chg == nil || chg.shapes[k] {
			st.Shapes[k] = Shape{Src: sh.src, Label: sh.label}
		}
	}
	return st
}

// Apply adds d to st: a delta's changes, or all of a whole state.
func (st *State) Apply(d State) {
	if !d.Delta {
		*st = d
		return
	}
	st.Seq, st.Dot = d.Seq, st.Dot || d.Dot
	st.Labels = mergeMap(st.Labels, d.Labels)
	st.Names = mergeMap(st.Names, d.Names)
	for _, n := range d.Gone {
		delete(st.Names, n)
	}
	st.Pkgs = mergeMap(st.Pkgs, d.Pkgs)
	st.Shapes = mergeMap(st.Shapes, d.Shapes)
	st.History = append(st.History[:min(d.HistoryFrom, len(st.History))], d.History...)
}

func mergeMap[K comparable, V any](dst, src map[K]V) map[K]V {
	if dst == nil {
		dst = map[K]V{}
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
}

func (h histEntry) export() HistoryEntry {
	e := HistoryEntry{Label: h.label, Src: h.src, Names: append([]string(nil), h.names...), Site: h.site, Inits: h.inits}
	for _, it := range h.items {
		e.Items = append(e.Items, HistoryItem{Src: it.src, Names: it.names, Var: it.isVar, Calls: it.calls})
	}
	if len(h.funcs) > 0 {
		e.Funcs = map[string]Func{}
		for k, f := range h.funcs {
			e.Funcs[k] = exportFunc(f)
		}
	}
	return e
}

func importEntry(e HistoryEntry) histEntry {
	h := histEntry{label: e.Label, src: e.Src, names: e.Names, site: e.Site, inits: e.Inits}
	for _, it := range e.Items {
		h.items = append(h.items, histItem{src: it.Src, names: it.Names, isVar: it.Var, calls: it.Calls})
	}
	if len(e.Funcs) > 0 {
		h.funcs = map[string]source.Func{}
		for k, f := range e.Funcs {
			h.funcs[k] = importFunc(f)
		}
	}
	return h
}

func exportFunc(f source.Func) Func { return Func{Src: f.Src, Refs: sortedKeys(f.Refs)} }

func importFunc(f Func) source.Func {
	refs := map[string]bool{}
	for _, r := range f.Refs {
		refs[r] = true
	}
	return source.Func{Src: f.Src, Refs: refs}
}

// sortedKeys lists the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Restore loads st into a fresh session (one that has run no cell) and
// replays its history into the interpreter, entry by entry in the order
// written (see replay.go): imports, types, funcs, consts and vars
// (re-initialized from their declarations), never statements nor func
// init. It stops at ctx's end. What was not restored (statements, the
// declarations that failed, those opt leaves out, those after an
// interrupt) is forgotten, so that the next StateChanges, a whole state,
// is the session as it now is. What initializers print is dropped.
func (s *Session) Restore(ctx context.Context, st State, opt RestoreOptions) Replay {
	s.mu.Lock()
	s.seq, s.dot = st.Seq, st.Dot
	for k, v := range st.Labels {
		s.labels[k], s.kept[k] = v, true
	}
	for k, v := range st.Pkgs {
		s.pkgs[k] = v
	}
	for name, n := range st.Names {
		s.names[name] = nameInfo{Decl: source.Decl{Name: name, Kind: source.DeclKind(n.Kind), Line: n.Line, Sig: n.Sig, Doc: n.Doc}, label: n.Label}
	}
	history := make([]histEntry, 0, len(st.History))
	for _, h := range st.History {
		history = append(history, importEntry(h))
	}
	for k, sh := range st.Shapes {
		s.shapes[k] = shapeSrc{src: sh.Src, label: sh.Label}
	}
	m := s.m
	s.mu.Unlock()
	r := s.replay(ctx, m, history, opt)
	r.rep.Lost = s.adopt(r)
	s.syncStreams()
	s.out.Drop() // what initializers printed was shown when their cells ran
	return r.rep
}
