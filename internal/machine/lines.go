package machine

import (
	"fmt"
	"strconv"
	"strings"
)

// Lines describes the machine for people, one setting per line, in the
// style of the "machine and its settings" block of a results file: the CPU,
// microcode, kernel, one line per CPU (frequencies, the CPUs sharing its
// core, governor and energy preference), intel_pstate, transparent huge
// pages, clocksource, randomize_va_space, compiler versions, and the caches
// of each core.
func (d Description) Lines() []string {
	lines := []string{
		"cpu: " + d.CPUModel,
		"microcode: " + d.Microcode,
		"kernel: " + d.Kernel,
		fmt.Sprintf("arch: %s, %d logical CPUs, %s, SMT %s", d.Arch, d.LogicalCPUs, coresText(d.PhysicalCores), d.SMT),
		"hypervisor: " + d.Virtualized,
		"memory: " + d.MemTotal,
	}
	for _, c := range d.CPUs {
		lines = append(lines, c.line())
	}
	if p := d.IntelPstate; p != nil {
		lines = append(lines, fmt.Sprintf("intel_pstate: status %s, no_turbo %s, min_perf_pct %s, max_perf_pct %s",
			p.Status, p.NoTurbo, p.MinPerfPct, p.MaxPerfPct))
	}
	lines = append(lines,
		fmt.Sprintf("transparent huge pages: enabled %s, defrag %s", d.THPEnabled, d.THPDefrag),
		"clocksource: "+d.Clocksource,
		"randomize_va_space: "+d.ASLR,
		"cc: "+d.CC,
		"go: "+d.Go,
	)
	return append(lines, cacheLines(d.CPUs)...)
}

// coresText is the physical core count, or says it is unknown (0).
func coresText(n int) string {
	if n == 0 {
		return "physical cores unknown"
	}
	return strconv.Itoa(n) + " physical cores"
}

// line is one CPU's line: its kind of core if hybrid, its frequencies, the
// CPUs that share its core, and its cpufreq policy, or "no cpufreq" if the
// kernel exposes none of these settings.
func (c CPU) line() string {
	var parts []string
	if c.CoreType != "" {
		parts = append(parts, c.CoreType+" core")
	}
	freq := []string{c.MaxKHz, c.BaseKHz, c.Governor, c.EnergyPref, c.Driver}
	if allUnknown(freq) {
		parts = append(parts, "core shared with CPUs "+c.Siblings, "no cpufreq")
	} else {
		parts = append(parts,
			"max "+khzText(c.MaxKHz), "base "+khzText(c.BaseKHz),
			"core shared with CPUs "+c.Siblings,
			"governor "+c.Governor,
			"energy_performance_preference "+c.EnergyPref,
			"driver "+c.Driver)
	}
	return fmt.Sprintf("cpu%d: %s", c.ID, strings.Join(parts, ", "))
}

// khzText appends the unit to a known frequency in kHz.
func khzText(khz string) string {
	if khz == Unknown {
		return khz
	}
	return khz + " kHz"
}

// allUnknown reports whether every value is Unknown.
func allUnknown(values []string) bool {
	for _, v := range values {
		if v != Unknown {
			return false
		}
	}
	return true
}

// cacheLines gives one line per distinct core, for its first CPU: each
// cache with its size and the CPUs that share it, e.g. "caches of cpu0:
// L1d 48K (CPUs 0-1), L1i 32K (CPUs 0-1), L2 1280K (CPUs 0-1), L3 18432K
// (CPUs 0-15)".
func cacheLines(cpus []CPU) []string {
	var lines []string
	seen := map[string]bool{}
	for _, c := range cpus {
		if len(c.Caches) == 0 {
			continue
		}
		key := c.Siblings
		if key == Unknown {
			key = "cpu" + strconv.Itoa(c.ID)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		var parts []string
		for _, k := range c.Caches {
			parts = append(parts, fmt.Sprintf("%s %s (CPUs %s)", k.name(), k.Size, k.Shared))
		}
		lines = append(lines, fmt.Sprintf("caches of cpu%d: %s", c.ID, strings.Join(parts, ", ")))
	}
	return lines
}

// name is the usual short name of a cache: L1d, L1i, L2, L3.
func (k Cache) name() string {
	name := "L" + strconv.Itoa(k.Level)
	if k.Level == 0 {
		name = "L?"
	}
	switch k.Type {
	case "Data":
		return name + "d"
	case "Instruction":
		return name + "i"
	}
	return name
}
