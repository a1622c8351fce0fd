package glue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/benchbook/benchbook/cells/glue/machine"
	"github.com/benchbook/benchbook/cells/glue/source"
)

// A replay runs a session's history (its imports and declarations, in the
// order written, never its statements) in a new interpreter: after a stuck
// cell (Session.replace) or in a new process (Restore). Each entry runs as
// it ran first: a declaration unit, then the relinking of the funcs that
// call a func it redefined, so that a var initialized from a func sees the
// func as it was when the var was declared. What the replay cannot give
// back, and what ran again, is said in the Replay it returns.

// histItem is one top-level declaration of a declaration unit, as given to
// the interpreter (line directive included).
type histItem struct {
	src   string
	names []string
	// calls marks a var whose initializer calls code (other than the
	// Options.Replayed calls): replaying it runs that code again.
	calls bool
	isVar bool // a var declaration
}

// source is what a replay runs for h: its import, or its declarations
// without those that skip leaves out; "" when nothing is left.
func (h histEntry) source(skip bool) string {
	if len(h.items) == 0 {
		return h.src
	}
	var b strings.Builder
	for _, it := range h.items {
		if skip && it.calls {
			continue
		}
		b.WriteString(it.src)
	}
	if b.Len() == 0 {
		return ""
	}
	return "package main;" + b.String()
}

// siteOf is the key of the calls made while a declaration unit runs (see
// Session.CallSite): the same in the cell and in every replay of it.
func siteOf(src string) string {
	sum := sha256.Sum256([]byte(src))
	return hex.EncodeToString(sum[:8])
}

// CallSite names a call that compiled code makes while a declaration runs,
// so that the host can give the same answer to the same call in a replay
// (bench.Run in a var initializer: the result it returned, not a new run).
// Each call gets the next name of the unit running; outside a declaration
// it returns "".
func (s *Session) CallSite() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.site == "" {
		return ""
	}
	s.siteCalls++
	return fmt.Sprintf("%s#%d", s.site, s.siteCalls)
}

// setSite starts (site != "") or ends the calls of a declaration unit.
func (s *Session) setSite(site string) {
	s.mu.Lock()
	s.site, s.siteCalls = site, 0
	s.mu.Unlock()
}

// RestoreOptions say what a replay leaves out.
type RestoreOptions struct {
	// Skip maps the index of a history entry to why its initializers that
	// call code are left out (they crashed an earlier replay).
	Skip map[int]string `json:"skip,omitempty"`
	// NoCalls, when set, leaves out every initializer that calls code, and
	// says why.
	NoCalls string `json:"no_calls,omitempty"`
	// OnEntry, if set, is called before entry i runs (a host that may die
	// during the replay learns which entry killed it).
	OnEntry func(i int) `json:"-"`
}

// Replay is what a replay did, for the user (names are "x (Cell[3])").
type Replay struct {
	Restored []string `json:"restored,omitempty"`
	// RanAgain are the vars whose initializers call code and ran again.
	RanAgain []string `json:"ran_again,omitempty"`
	// InitFuncs are the cells whose func init was not run again.
	InitFuncs []string `json:"init_funcs,omitempty"`
	// Failed are the declarations that did not compile or run again, with
	// why; Skipped those the options left out.
	Failed  []string `json:"failed,omitempty"`
	Skipped []string `json:"skipped,omitempty"`
	// Lost are the names defined by statements, never replayed.
	Lost []string `json:"lost,omitempty"`
	// Interrupted says the replay stopped at an interrupt; NotReached are
	// the declarations it did not get to.
	Interrupted bool     `json:"interrupted,omitempty"`
	NotReached  []string `json:"not_reached,omitempty"`
	// Stuck says a stopped initializer did not stop (it is inside a call
	// the interpreter cannot interrupt): the interpreter is unusable.
	Stuck bool `json:"stuck,omitempty"`
}

// Note says in a few sentences what the replay did.
func (r Replay) Note() string {
	var b strings.Builder
	b.WriteString("Restored by re-running the imports and declarations of earlier cells, in the order written: " + listOrNone(r.Restored) + ".")
	if len(r.Restored) > 0 {
		b.WriteString(" Variables declared with var were re-initialized from their declarations: values assigned to them later are lost.")
	}
	if len(r.RanAgain) > 0 {
		b.WriteString("\nInitializers that call code ran again (what they did outside the process, such as files written or output shown, happened twice): " + strings.Join(r.RanAgain, ", ") + ".")
	}
	if len(r.InitFuncs) > 0 {
		b.WriteString("\nNot run again: func init of " + strings.Join(r.InitFuncs, ", ") + ".")
	}
	if len(r.Lost) > 0 {
		b.WriteString("\nNot restored (defined by statements; re-run their cells): " + strings.Join(r.Lost, ", ") + ".")
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\nNot restored: " + strings.Join(r.Skipped, "; ") + ".")
	}
	if len(r.Failed) > 0 {
		b.WriteString("\nFailed to restore: " + strings.Join(r.Failed, "; ") + ".")
	}
	if r.Interrupted {
		b.WriteString("\nThe replay was interrupted; not restored: " + listOrNone(r.NotReached) + ".")
	}
	return b.String()
}

// labelled is "name (label)" for each name.
func labelled(names []string, label string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, n+" ("+label+")")
	}
	return out
}

// replayed is the outcome of replaying a history: the entries as they now
// stand (what was left out removed), the funcs as relinked, the report.
type replayed struct {
	history []histEntry
	funcs   map[string]source.Func
	rep     Replay
}

// replay runs history in m, entry by entry in the order written; it stops at
// ctx's end. Entries that fail, and the items opt leaves out, are not in
// the history it returns.
func (s *Session) replay(ctx context.Context, m *machine.Machine, history []histEntry, opt RestoreOptions) replayed {
	out := replayed{funcs: map[string]source.Func{}}
	restored := map[string]bool{}
	deadline := time.Now().Add(machine.ReplayLimit)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for i, h := range history {
		if ctx.Err() != nil {
			if time.Now().After(deadline) {
				out.rep.Failed = append(out.rep.Failed, fmt.Sprintf("%s: the replay passed its limit of %s", strings.Join(labelled(h.names, h.label), ", "), machine.ReplayLimit))
				continue
			}
			out.rep.Interrupted = true
			out.rep.NotReached = append(out.rep.NotReached, labelled(h.names, h.label)...)
			continue
		}
		if opt.OnEntry != nil {
			opt.OnEntry(i)
		}
		why, skip := opt.Skip[i], false
		if why != "" {
			skip = true
		} else if opt.NoCalls != "" {
			why, skip = opt.NoCalls, true
		}
		h = h.without(skip, why, &out.rep)
		if h.inits > 0 {
			out.rep.InitFuncs = append(out.rep.InitFuncs, h.label)
		}
		src := h.source(false)
		if src == "" {
			continue
		}
		old, slots := m.GlobalsNamed(h.names), m.FrameLen()
		s.setSite(h.site)
		err, stuck := m.RunReplayed(ctx, src, s.token, s.wakeSleepers)
		s.setSite("")
		out.rep.Stuck = out.rep.Stuck || stuck
		if err != nil {
			if ctx.Err() != nil && !time.Now().After(deadline) {
				out.rep.Interrupted = true
				out.rep.NotReached = append(out.rep.NotReached, labelled(h.names, h.label)...)
				continue
			}
			msg, _ := s.mapPositions(source.FirstLine(err.Error()), 0)
			out.rep.Failed = append(out.rep.Failed, fmt.Sprintf("%s: %s", strings.Join(labelled(h.names, h.label), ", "), msg))
			continue
		}
		for _, it := range h.items {
			if it.calls {
				out.rep.RanAgain = append(out.rep.RanAgain, labelled(it.names, h.label)...)
			}
		}
		for _, n := range h.names {
			if !restored[n] {
				restored[n] = true
				out.rep.Restored = append(out.rep.Restored, n)
			}
		}
		out.history = append(out.history, h)
		s.relinkReplayed(ctx, m, out.funcs, h.funcs, old)
		machine.Release(old, h.vars())
		m.DropTemps(slots, h.vars())
	}
	return out
}

// vars are the names of an entry's var declarations.
func (h histEntry) vars() map[string]bool {
	out := map[string]bool{}
	for _, it := range h.items {
		for _, n := range it.names {
			if it.isVar {
				out[n] = true
			}
		}
	}
	return out
}

// without is h with its initializers that call code left out when skip is
// set, which rep records with why.
func (h histEntry) without(skip bool, why string, rep *Replay) histEntry {
	if !skip {
		return h
	}
	var items []histItem
	left := map[string]bool{}
	for _, it := range h.items {
		if it.calls {
			for _, n := range it.names {
				left[n] = true
			}
			continue
		}
		items = append(items, it)
	}
	if len(left) == 0 {
		return h
	}
	var names []string
	for _, n := range h.names {
		if !left[n] {
			names = append(names, n)
		}
	}
	lost := make([]string, 0, len(left))
	for n := range left {
		lost = append(lost, n)
	}
	sort.Strings(lost)
	rep.Skipped = append(rep.Skipped, strings.Join(labelled(lost, h.label), ", ")+": "+why)
	h.items, h.names = items, names
	return h
}

// relinkReplayed adds an entry's funcs to funcs and, as recordDecls did
// when its cell ran, recompiles the funcs that use a name it redeclared
// (old: those that existed).
func (s *Session) relinkReplayed(ctx context.Context, m *machine.Machine, funcs, fresh map[string]source.Func, old map[string]reflect.Value) {
	if src := source.Relink(funcs, fresh, old); src != "" {
		_ = m.RunPlain(ctx, src)
	}
}

// adopt makes a replay's outcome the session's history and funcs, and
// forgets the names it did not restore; it returns those defined by
// statements, which are lost.
func (s *Session) adopt(r replayed) []string {
	back := map[string]bool{}
	for _, h := range r.history {
		for _, n := range h.names {
			back[n] = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = r.history
	s.funcs = r.funcs
	var lost []string
	for name, n := range s.names {
		if back[name] {
			continue
		}
		if n.Kind == source.DeclDefine {
			lost = append(lost, name+" ("+n.label+")")
		}
		delete(s.names, name)
		s.chg.gone[name] = true
	}
	for key := range s.shapes {
		typ, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(key, "type "), "method "), ".")
		if !back[typ] {
			delete(s.shapes, key)
		}
	}
	s.chg.all = true
	sort.Strings(lost)
	return lost
}

// replace gives up the session's interpreter for a new one and replays the
// imports and declarations of the cells into it. It returns the note shown
// to the user: what was restored and what was not.
func (s *Session) replace(c *cellRun) string {
	m, err := s.newMachine()
	if err != nil {
		return "The interpreter was stuck and could not be replaced: " + err.Error() + ". Restart the kernel."
	}
	s.mu.Lock()
	s.m = m
	history := append([]histEntry(nil), s.history...)
	s.mu.Unlock()
	r := s.replay(context.Background(), m, history, RestoreOptions{})
	r.rep.Lost = s.adopt(r)
	return "The cell did not stop: it is inside a call the interpreter cannot interrupt. " +
		"The interpreter was replaced by a new one (the old one is left to finish in the background).\n" + r.rep.Note()
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}
