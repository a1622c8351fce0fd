package findings

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
)

// loadKindSentences say what the load threads of load= did, so that a
// spread or a slowdown under load is read against the right resource.
func loadKindSentences(f *facts) []Sentence {
	p := f.r.Protocol
	if p.Load == 0 || p.LoadKind == "" {
		return nil
	}
	text := fmt.Sprintf("the load was alu: each of the %s spun on a chain of dependent integer additions, which takes a CPU and leaves the caches and memory alone",
		numtext.Plural(p.Load, "load thread"))
	if p.LoadKind == machine.LoadMemory {
		text = fmt.Sprintf("the load was memory: each of the %s streamed writes over %s of its own (one byte in every 64, twice the last-level cache or at most %s), "+
			"which takes the shared cache and memory bandwidth as well as a CPU", numtext.Plural(p.Load, "load thread"), bytesText(p.LoadBytes), bytesText(machine.MaxLoadMemoryBytes))
	}
	return said(ClaimLoadKind, "", TopicLoad, "", "", text)
}
