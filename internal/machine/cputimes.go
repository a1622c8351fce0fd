package machine

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// ClockTicksPerSecond is the unit of the times in /proc/stat and
// /proc/[pid]/stat: USER_HZ, which Linux fixes at 100 on every
// architecture Go supports. It is part of the kernel's user-space ABI and
// independent of the kernel's internal tick rate (CONFIG_HZ, 100 to 1000):
// the kernel converts to USER_HZ before writing these files, and it is what
// sysconf(_SC_CLK_TCK) returns (the kernel passes it as AT_CLKTCK in the
// auxiliary vector). Only alpha (not a Go port) differs.
const ClockTicksPerSecond = 100

// CPUTime is one CPU's line of /proc/stat: the time it spent in each state
// since boot, in clock ticks (see ClockTicksPerSecond). Guest time is not
// separate: the kernel already counts it in User and Nice.
type CPUTime struct {
	CPU     int    `json:"cpu"`
	User    uint64 `json:"user"`
	Nice    uint64 `json:"nice"`
	System  uint64 `json:"system"`
	Idle    uint64 `json:"idle"`
	IOWait  uint64 `json:"iowait"`
	IRQ     uint64 `json:"irq"`
	SoftIRQ uint64 `json:"softirq"`
	Steal   uint64 `json:"steal"`
}

// CPUTimes is the per-CPU part of /proc/stat at one moment, in the order
// the kernel lists the CPUs (online CPUs only).
type CPUTimes struct {
	CPUs []CPUTime `json:"cpus"`
}

// ReadCPUTimes reads the per-CPU lines of /proc/stat.
func ReadCPUTimes() (CPUTimes, error) {
	return readCPUTimesFS(os.DirFS("/"))
}

// readCPUTimesFS reads proc/stat from fsys.
func readCPUTimesFS(fsys fs.FS) (CPUTimes, error) {
	b, err := fs.ReadFile(fsys, "proc/stat")
	if err != nil {
		return CPUTimes{}, fmt.Errorf("CPU times: %w", err)
	}
	t, err := parseCPUTimes(b)
	if err != nil {
		return CPUTimes{}, fmt.Errorf("/proc/stat: %w", err)
	}
	return t, nil
}

// parseCPUTimes parses the "cpuN ..." lines of /proc/stat; the total "cpu"
// line and the other lines are skipped. Kernels older than 2.6.11 write
// fewer columns: the missing ones are 0.
func parseCPUTimes(b []byte) (CPUTimes, error) {
	var t CPUTimes
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024) // the intr line is long
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		id, ok := strings.CutPrefix(fields[0], "cpu")
		if !ok || id == "" {
			continue
		}
		c, err := parseCPUTime(id, fields[1:])
		if err != nil {
			return CPUTimes{}, fmt.Errorf("line %d: %w", line, err)
		}
		t.CPUs = append(t.CPUs, c)
	}
	if err := sc.Err(); err != nil {
		return CPUTimes{}, err
	}
	if len(t.CPUs) == 0 {
		return CPUTimes{}, fmt.Errorf("no cpuN lines")
	}
	return t, nil
}

// parseCPUTime parses the number and the values of one cpuN line.
func parseCPUTime(id string, values []string) (CPUTime, error) {
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 {
		return CPUTime{}, fmt.Errorf("%q is not a CPU line", "cpu"+id)
	}
	if len(values) < 4 {
		return CPUTime{}, fmt.Errorf("cpu%d has %d values, want at least 4", n, len(values))
	}
	c := CPUTime{CPU: n}
	dst := []*uint64{&c.User, &c.Nice, &c.System, &c.Idle, &c.IOWait, &c.IRQ, &c.SoftIRQ, &c.Steal}
	for i, v := range values[:min(len(values), len(dst))] {
		if *dst[i], err = strconv.ParseUint(v, 10, 64); err != nil {
			return CPUTime{}, fmt.Errorf("cpu%d value %d: %q is not a tick count", n, i+1, v)
		}
	}
	return c, nil
}

// total is all the time of c, in ticks.
func (c CPUTime) total() uint64 {
	return c.User + c.Nice + c.System + c.Idle + c.IOWait + c.IRQ + c.SoftIRQ + c.Steal
}

// idle is the time c spent idle or waiting for I/O.
func (c CPUTime) idle() uint64 { return c.Idle + c.IOWait }

// NotMeasured is the BusyPct of a CPU that is missing from one of the two
// readings, or whose counters did not advance between them.
const NotMeasured = -1.0

// BusyPct returns the busy share of each CPU between two readings, in
// percent, indexed by CPU number: busy is all the time except idle and
// iowait (so steal time, when a hypervisor ran something else, counts as
// busy), over all the time that passed. A CPU with no tick in between, or
// missing from a reading, is NotMeasured. The ticks are 10 ms, so an
// interval of 300 ms gives each CPU a resolution of about 3 percent.
func BusyPct(before, after CPUTimes) []float64 {
	prev := map[int]CPUTime{}
	size := 0
	for _, c := range before.CPUs {
		prev[c.CPU] = c
	}
	for _, c := range after.CPUs {
		size = max(size, c.CPU+1)
	}
	busy := make([]float64, size)
	for i := range busy {
		busy[i] = NotMeasured
	}
	for _, a := range after.CPUs {
		if b, ok := prev[a.CPU]; ok {
			busy[a.CPU] = busyBetween(b, a)
		}
	}
	return busy
}

// busyBetween is the busy percentage of one CPU between two readings.
// The kernel's iowait count may step backwards; the idle share is clamped.
func busyBetween(b, a CPUTime) float64 {
	total := float64(a.total()) - float64(b.total())
	if total <= 0 {
		return NotMeasured
	}
	idle := float64(a.idle()) - float64(b.idle())
	return 100 * (total - min(max(idle, 0), total)) / total
}
