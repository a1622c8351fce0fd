package machine

import (
	"fmt"
	"os"
	"time"
)

// Measure starts measuring what happens on the machine during a run: it
// reads /proc/stat and every /proc/[pid]/stat now, and stop reads them
// again and returns the time between, each CPU's busy share (BusyPct), and
// the top busiest processes outside this process and its descendants (as
// they are when stop is called; see Busiest for what it cannot see).
func Measure(top int) (stop func() (During, error), err error) {
	start := time.Now()
	cpus, err := ReadCPUTimes()
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	procs, err := SnapshotProcs()
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	return func() (During, error) {
		cpus2, err := ReadCPUTimes()
		if err != nil {
			return During{}, fmt.Errorf("measure: %w", err)
		}
		procs2, err := SnapshotProcs()
		if err != nil {
			return During{}, fmt.Errorf("measure: %w", err)
		}
		seconds := time.Since(start).Seconds()
		own := procs2.Descendants(os.Getpid())
		return During{
			Seconds: seconds,
			BusyPct: BusyPct(cpus, cpus2),
			Busiest: Busiest(procs, procs2, seconds, func(pid int) bool { return own[pid] }, top),
		}, nil
	}, nil
}
