package machine

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// Now records the moment before or after a run: the time, the load
// average, and the current frequency of each CPU from cpufreq, or, where
// /sys has no cpufreq (as in most VMs), an estimate from EstimateFrequency
// made on the calling thread's CPU (about 15 ms). What cannot be read is
// said in Notes; Now never fails.
func Now() Moment {
	return nowFS(os.DirFS("/"), time.Now(), EstimateFrequency)
}

// nowFS is Now on the file system fsys, at time t, estimating the
// frequency with estimate when fsys has no cpufreq.
func nowFS(fsys fs.FS, t time.Time, estimate func() (float64, error)) Moment {
	m := Moment{Time: t.Format(time.RFC3339Nano)}
	var err error
	if m.Loadavg, err = parseLoadavg(readFile(fsys, "proc/loadavg")); err != nil {
		m.Notes = append(m.Notes, "/proc/loadavg: "+err.Error())
	}
	m.FreqKHz = curFreqs(fsys)
	if m.FreqKHz != nil {
		return m
	}
	if m.FreqEstimateMHz, err = estimate(); err != nil {
		m.FreqEstimateMHz = 0
		m.Notes = append(m.Notes, "no cpufreq and "+err.Error())
	}
	return m
}

// parseLoadavg parses the three load averages at the start of
// /proc/loadavg ("0.22 0.30 0.13 2/86 7381").
func parseLoadavg(b []byte) ([3]float64, error) {
	var avg [3]float64
	fields := strings.Fields(string(b))
	if len(fields) < 3 {
		return avg, fmt.Errorf("%q has fewer than 3 load averages", b)
	}
	for i := range avg {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			return [3]float64{}, fmt.Errorf("load average %d: %q is not a number", i+1, fields[i])
		}
		avg[i] = v
	}
	return avg, nil
}

// curFreqs reads cpufreq's scaling_cur_freq of each online CPU, keyed by
// CPU number, or returns nil if no CPU has one.
func curFreqs(fsys fs.FS) map[string]float64 {
	ids, err := onlineCPUsFS(fsys)
	if err != nil {
		return nil
	}
	var freqs map[string]float64
	for _, id := range ids {
		v := readValue(fsys, fmt.Sprintf("%s/cpu%d/cpufreq/scaling_cur_freq", cpuRoot, id))
		khz, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		if freqs == nil {
			freqs = map[string]float64{}
		}
		freqs[strconv.Itoa(id)] = khz
	}
	return freqs
}
