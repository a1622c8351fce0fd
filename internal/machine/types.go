// Package machine describes the machine a benchmark runs on and the conditions
// around a run: CPU, caches, frequency settings, clock source, kernel and
// toolchain versions; load average and CPU frequency at a moment; per-CPU busy
// share and the busiest other processes during a run; a frequency estimate
// where /sys has no cpufreq; busy threads to load the machine on purpose.
// What the machine lacks is reported as "unknown", never as a failure.
package machine

// Unknown is the value of any field the machine does not expose.
const Unknown = "unknown"

// CPU describes one logical CPU.
type CPU struct {
	ID         int     `json:"id"`
	Core       string  `json:"core"`     // core_id, or "unknown"
	Package    string  `json:"package"`  // physical_package_id, or "unknown"
	Siblings   string  `json:"siblings"` // thread_siblings_list, e.g. "0-1"
	MaxKHz     string  `json:"max_khz"`  // cpuinfo_max_freq, or "unknown"
	BaseKHz    string  `json:"base_khz"` // base_frequency, or "unknown"
	Governor   string  `json:"governor"`
	EnergyPref string  `json:"energy_performance_preference"`
	Driver     string  `json:"scaling_driver"`
	Caches     []Cache `json:"caches"`
	// CoreType is "performance" or "efficiency" on hybrid CPUs (from
	// /sys/devices/cpu_core/cpus and /sys/devices/cpu_atom/cpus), empty elsewhere.
	CoreType string `json:"core_type,omitempty"`
}

// Cache is one cache level as /sys/devices/system/cpu/cpuN/cache shows it.
type Cache struct {
	Level  int    `json:"level"`
	Type   string `json:"type"` // Data, Instruction, Unified
	Size   string `json:"size"` // as /sys writes it, e.g. "32K"
	Shared string `json:"shared_cpu_list"`
}

// Description is the machine as a result records it.
type Description struct {
	CPUModel      string `json:"cpu_model"`
	Microcode     string `json:"microcode"`
	Arch          string `json:"arch"`
	LogicalCPUs   int    `json:"logical_cpus"`   // online CPUs (a cpuset may allow fewer)
	PhysicalCores int    `json:"physical_cores"` // distinct cores; 0 if the topology is unknown
	SMT           string `json:"smt"`            // "on", "off", "notsupported" or "unknown"
	CPUs          []CPU  `json:"cpus"`
	THPEnabled    string `json:"thp_enabled"`
	THPDefrag     string `json:"thp_defrag"`
	Clocksource   string `json:"clocksource"`
	ASLR          string `json:"randomize_va_space"`
	Kernel        string `json:"kernel"`
	CC            string `json:"cc_version"`
	Go            string `json:"go_version"`
	Virtualized   string `json:"hypervisor"` // from the cpuinfo hypervisor flag, or "none"
	MemTotal      string `json:"mem_total"`
	// IntelPstate is the intel_pstate driver's global state, nil where
	// /sys/devices/system/cpu/intel_pstate does not exist.
	IntelPstate *IntelPstate `json:"intel_pstate,omitempty"`
}

// IntelPstate is the global state of the intel_pstate cpufreq driver, as
// /sys/devices/system/cpu/intel_pstate shows it; a missing file is "unknown".
type IntelPstate struct {
	Status     string `json:"status"`       // active, passive or off
	NoTurbo    string `json:"no_turbo"`     // 1 when turbo is disabled
	MinPerfPct string `json:"min_perf_pct"` // lowest P-state allowed, % of max
	MaxPerfPct string `json:"max_perf_pct"` // highest P-state allowed, % of max
}

// Moment is what a run records before and after itself.
type Moment struct {
	Time    string     `json:"time"` // RFC 3339 with nanoseconds
	Loadavg [3]float64 `json:"loadavg"`
	// FreqKHz is scaling_cur_freq per CPU ("0", "1", ...), nil where /sys has no cpufreq.
	FreqKHz map[string]float64 `json:"freq_khz"`
	// FreqEstimateMHz is the estimate from a timed chain of dependent adds,
	// made when FreqKHz is nil; 0 when not made.
	FreqEstimateMHz float64 `json:"freq_estimate_mhz,omitempty"`
	// Notes says what could not be read or estimated, and why.
	Notes []string `json:"notes,omitempty"`
}

// ProcUse is one other process's CPU use during a run.
type ProcUse struct {
	PID     int     `json:"pid"`
	Command string  `json:"command"`
	CPU     int     `json:"last_cpu"` // the CPU it last ran on
	BusyPct float64 `json:"busy_pct"` // of one CPU, over the run
}

// During is what was measured over the whole run.
type During struct {
	Seconds float64   `json:"seconds"`
	BusyPct []float64 `json:"busy_pct"` // per CPU, from /proc/stat
	Busiest []ProcUse `json:"busiest"`  // other processes, busiest first
}
