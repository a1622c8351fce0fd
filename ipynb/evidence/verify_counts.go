package evidence

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/protocol"
)

// checkCounts recomputes every variant's instruction counts (counts) from
// the two callgrind runs it stores (protocol.CountsOf): instructions per pass,
// per element, and the simulated misses per pass.
func checkCounts(r *protocol.Result) []string {
	var problems []string
	for _, v := range r.Variants {
		c := v.Counts
		if c == nil {
			continue
		}
		name := fmt.Sprintf("variant %s counts", v.Name)
		again, err := protocol.CountsOf(c.Runs, c.Cache, r.Protocol.Elements)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: cannot be recomputed: %v", name, err))
			continue
		}
		if c.InstructionsPerPass != again.InstructionsPerPass {
			problems = append(problems, fmt.Sprintf("%s: instructions_per_pass is %d, its runs give %d", name, c.InstructionsPerPass, again.InstructionsPerPass))
		}
		for _, f := range []struct {
			key         string
			stored, got *float64
		}{
			{"per_element", c.PerElement, again.PerElement},
			{"d1_misses_per_pass", c.D1MissesPerPass, again.D1MissesPerPass},
			{"ll_misses_per_pass", c.LLMissesPerPass, again.LLMissesPerPass},
		} {
			switch {
			case (f.stored == nil) != (f.got == nil):
				problems = append(problems, fmt.Sprintf("%s: %s is %s, its runs give %s", name, f.key, optNum(f.stored), optNum(f.got)))
			case f.stored != nil && !agree(*f.stored, *f.got):
				problems = append(problems, fmt.Sprintf("%s: %s is %s, its runs give %s", name, f.key, num(*f.stored), num(*f.got)))
			}
		}
		if c.Tool != again.Tool {
			problems = append(problems, fmt.Sprintf("%s: tool is %q, its runs are %q's", name, c.Tool, again.Tool))
		}
	}
	return problems
}

// optNum writes an optional number; "absent" for none.
func optNum(x *float64) string {
	if x == nil {
		return "absent"
	}
	return num(*x)
}
