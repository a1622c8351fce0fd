package glue

import (
	"sort"
	"strings"
)

// State is what a session needs to rebuild itself in another process: the
// imports and declarations of its cells (the history that replace replays),
// the names they declared, the latest source of each func, the types and
// methods declared, and the cell labels that positions refer to. It holds
// sources and names only, never values, and encodes as JSON.
type State struct {
	Seq     int               `json:"seq"`
	Labels  map[int]string    `json:"labels"`
	Names   []NameState       `json:"names"`
	Pkgs    map[string]string `json:"pkgs"`
	Dot     bool              `json:"dot,omitempty"`
	History []HistoryEntry    `json:"history"`
	Funcs   map[string]Func   `json:"funcs"`
	Shapes  map[string]Shape  `json:"shapes"`
}

// NameState is a top-level name a cell declared.
type NameState struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Line  int    `json:"line"`
	Sig   string `json:"sig,omitempty"`
	Doc   string `json:"doc,omitempty"`
	Label string `json:"label"`
}

// HistoryEntry is an import or a run of declarations, as given to the
// interpreter.
type HistoryEntry struct {
	Label string   `json:"label"`
	Src   string   `json:"src"`
	Names []string `json:"names"`
}

// Func is the latest source of a func and the names its body uses.
type Func struct {
	Src  string   `json:"src"`
	Refs []string `json:"refs"`
}

// Shape is the source of a type or method declaration and its cell.
type Shape struct {
	Src   string `json:"src"`
	Label string `json:"label"`
}

// State returns a copy of the session's state, taken between cells or
// while one runs (what a running cell has declared so far is included).
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Seq: s.seq, Labels: map[int]string{}, Pkgs: map[string]string{}, Dot: s.dot,
		Funcs: map[string]Func{}, Shapes: map[string]Shape{}}
	for k, v := range s.labels {
		st.Labels[k] = v
	}
	for k, v := range s.pkgs {
		st.Pkgs[k] = v
	}
	for _, n := range s.names {
		st.Names = append(st.Names, NameState{Name: n.name, Kind: string(n.kind), Line: n.line, Sig: n.sig, Doc: n.doc, Label: n.label})
	}
	sort.Slice(st.Names, func(i, j int) bool { return st.Names[i].Name < st.Names[j].Name })
	for _, h := range s.history {
		st.History = append(st.History, HistoryEntry{Label: h.label, Src: h.src, Names: append([]string(nil), h.names...)})
	}
	for k, f := range s.funcs {
		st.Funcs[k] = Func{Src: f.src, Refs: sortedKeys(f.refs)}
	}
	for k, sh := range s.shapes {
		st.Shapes[k] = Shape{Src: sh.src, Label: sh.label}
	}
	return st
}

// sortedKeys lists the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Restore loads st into a fresh session (one that has run no cell) and
// replays its imports and declarations into the interpreter: imports, types,
// funcs, consts and vars (re-initialized from their declarations), never
// statements. Names defined by statements (x := ...) are forgotten; what
// the initializers print is dropped. It returns what was restored, what
// failed and what was lost, for the user.
func (s *Session) Restore(st State) (restored, failed, lost []string) {
	s.mu.Lock()
	s.seq, s.dot = st.Seq, st.Dot
	for k, v := range st.Labels {
		s.labels[k] = v
	}
	for k, v := range st.Pkgs {
		s.pkgs[k] = v
	}
	for _, n := range st.Names {
		s.names[n.Name] = nameInfo{declName: declName{name: n.Name, kind: declKind(n.Kind), line: n.Line, sig: n.Sig, doc: n.Doc}, label: n.Label}
	}
	for _, h := range st.History {
		s.history = append(s.history, histEntry{label: h.Label, src: h.Src, names: h.Names})
	}
	funcs := make([]string, 0, len(st.Funcs))
	for k, f := range st.Funcs {
		refs := map[string]bool{}
		for _, r := range f.Refs {
			refs[r] = true
		}
		s.funcs[k] = funcSrc{src: f.Src, refs: refs}
		funcs = append(funcs, f.Src)
	}
	for k, sh := range st.Shapes {
		s.shapes[k] = shapeSrc{src: sh.Src, label: sh.Label}
	}
	history := append([]histEntry(nil), s.history...)
	m := s.m
	s.mu.Unlock()
	sort.Strings(funcs)
	restored, failed = s.replay(m, history, funcs)
	lost = s.forgetStatements(restored)
	s.syncStreams()
	s.out.drop() // what initializers printed was shown when their cells ran
	return restored, failed, lost
}

// RestoreNote says in a sentence or three what Restore did.
func RestoreNote(restored, failed, lost []string) string {
	var b strings.Builder
	b.WriteString("Restored by re-running the imports and declarations of earlier cells: " + listOrNone(restored) + ".")
	if len(restored) > 0 {
		b.WriteString(" Variables declared with var were re-initialized from their declarations: values assigned to them later are lost.")
	}
	if len(lost) > 0 {
		b.WriteString("\nNot restored (defined by statements; re-run their cells): " + strings.Join(lost, ", ") + ".")
	}
	if len(failed) > 0 {
		b.WriteString("\nFailed to restore: " + strings.Join(failed, ", ") + ".")
	}
	return b.String()
}
