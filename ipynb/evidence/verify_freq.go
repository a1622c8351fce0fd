package evidence

import (
	"fmt"
	"math"

	"github.com/benchbook/benchbook/internal/protocol"
)

// checkFreq recomputes the clock of every series (bench/freq.go) from the
// raw estimates stored beside it: each estimate's MHz from its iterations,
// adds and fastest trial (the driver prints it to 3 decimals), the clock
// of each sample from its process's estimates, and the cycles per element
// from the samples, their clocks and protocol.elements. A result without
// these fields (older results) has nothing to check.
func checkFreq(r *protocol.Result) []string {
	var problems []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for _, name := range protocol.SeriesNames {
			s := v.Get(name)
			if s == nil {
				continue
			}
			where := fmt.Sprintf("variant %s series %s", v.Name, name)
			for j, p := range s.FreqProcesses {
				for _, e := range []struct {
					when string
					e    *protocol.FreqEstimate
				}{{"before", p.Before}, {"after", p.After}} {
					if e.e == nil {
						continue
					}
					if e.e.NS <= 0 || e.e.MedianNS < e.e.NS || e.e.WorstNS < e.e.MedianNS {
						problems = append(problems, fmt.Sprintf("%s: freq_processes[%d].%s: its trials are not fastest <= median <= worst (%d, %d, %d ns)",
							where, j, e.when, e.e.NS, e.e.MedianNS, e.e.WorstNS))
						continue
					}
					got := float64(e.e.Iterations) * float64(e.e.Adds) / float64(e.e.NS) * 1000
					if math.Abs(e.e.MHz-got) > 0.0005+relTol*got {
						problems = append(problems, fmt.Sprintf("%s: freq_processes[%d].%s.mhz is %s, its iterations, adds and ns give %s",
							where, j, e.when, num(e.e.MHz), num(got)))
					}
				}
			}
			if len(s.FreqMHz) == 0 {
				if s.CyclesPerElement != nil {
					problems = append(problems, where+": cycles_per_element without freq_mhz")
				}
				continue
			}
			mhz, ok := protocol.FreqPerSample(s.FreqProcesses, len(s.SamplesNS))
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: freq_mhz has %d values but its freq_processes do not account for the %d samples",
					where, len(s.FreqMHz), len(s.SamplesNS)))
				continue
			}
			for k := range mhz {
				if k >= len(s.FreqMHz) || !agree(s.FreqMHz[k], mhz[k]) {
					stored := "missing"
					if k < len(s.FreqMHz) {
						stored = num(s.FreqMHz[k])
					}
					problems = append(problems, fmt.Sprintf("%s: freq_mhz[%d] is %s, its process's estimates give %s", where, k, stored, num(mhz[k])))
					break
				}
			}
			if len(s.FreqMHz) > len(mhz) {
				problems = append(problems, fmt.Sprintf("%s: freq_mhz has %d values for %d samples", where, len(s.FreqMHz), len(mhz)))
			}
			e := r.Protocol.Elements
			got, ok := 0.0, false
			if e != nil {
				got, ok = protocol.CyclesPerElement(s.SamplesNS, mhz, *e)
			}
			switch {
			case s.CyclesPerElement != nil && !ok:
				problems = append(problems, where+": cycles_per_element without protocol.elements")
			case s.CyclesPerElement != nil && !agree(*s.CyclesPerElement, got):
				problems = append(problems, fmt.Sprintf("%s: cycles_per_element is %s, the samples and their clocks give %s", where, num(*s.CyclesPerElement), num(got)))
			}
		}
	}
	return problems
}
