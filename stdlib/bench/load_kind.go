package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/machine"
)

// setLoad reads load=: N or alu:N (threads spinning on dependent adds),
// memory:N (threads streaming writes over twice the last-level cache).
func (o *Options) setLoad(val string) error {
	kind, n, hasKind := strings.Cut(val, ":")
	if !hasKind {
		kind, n = machine.LoadALU, val
	}
	k, err := strconv.Atoi(n)
	if err != nil || k < 0 || kind != machine.LoadALU && kind != machine.LoadMemory {
		return fmt.Errorf("load=%s: want a whole number of threads >= 0, alone or after a kind: load=2, load=alu:2 (dependent adds) or load=memory:2 (streaming writes over twice the last-level cache)", val)
	}
	o.Load, o.LoadKind = k, kind
	return nil
}

// loadKindSentences say what the load threads of load= did, so that a
// spread or a slowdown under load is read against the right resource.
func loadKindSentences(f *facts) []Sentence {
	p := f.r.Protocol
	if p.Load == 0 || p.LoadKind == "" {
		return nil
	}
	text := fmt.Sprintf("the load was alu: each of the %s spun on a chain of dependent integer additions, which takes a CPU and leaves the caches and memory alone",
		plural(p.Load, "load thread"))
	if p.LoadKind == machine.LoadMemory {
		text = fmt.Sprintf("the load was memory: each of the %s streamed writes over %s of its own (one byte in every 64, twice the last-level cache or at most %s), "+
			"which takes the shared cache and memory bandwidth as well as a CPU", plural(p.Load, "load thread"), bytesText(p.LoadBytes), bytesText(machine.MaxLoadMemoryBytes))
	}
	return said(ClaimLoadKind, "", TopicLoad, "", "", text)
}
