package machine

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// testHost is a fixed Host, so that the fixture tests do not run tools.
var testHost = Host{Kernel: "Linux 6.6.126-1-MANJARO", Arch: "x86_64", CC: "cc (GCC) 14.2.1", Go: "go version go1.26.8 linux/amd64"}

func TestDescribeVM(t *testing.T) {
	d := DescribeFS(fixture(t, "vm"), testHost)
	check := map[string][2]string{
		"model":       {d.CPUModel, "Intel(R) Xeon(R) Processor"},
		"microcode":   {d.Microcode, "0x1"},
		"smt":         {d.SMT, "notsupported"},
		"thp enabled": {d.THPEnabled, "always [madvise] never"},
		"thp defrag":  {d.THPDefrag, "always defer defer+madvise [madvise] never"},
		"clocksource": {d.Clocksource, "tsc"},
		"aslr":        {d.ASLR, "2"},
		"hypervisor":  {d.Virtualized, "yes"},
		"memtotal":    {d.MemTotal, "24684084 kB"},
		"kernel":      {d.Kernel, testHost.Kernel},
		"go":          {d.Go, testHost.Go},
	}
	for name, c := range check {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
	if d.LogicalCPUs != 2 || d.PhysicalCores != 2 || len(d.CPUs) != 2 {
		t.Fatalf("logical %d, physical %d, %d CPUs; want 2, 2, 2", d.LogicalCPUs, d.PhysicalCores, len(d.CPUs))
	}
	c1 := d.CPUs[1]
	for name, v := range map[string]string{"max": c1.MaxKHz, "base": c1.BaseKHz, "governor": c1.Governor, "epp": c1.EnergyPref, "driver": c1.Driver} {
		if v != Unknown {
			t.Errorf("cpu1 %s = %q on a VM without cpufreq, want %q", name, v, Unknown)
		}
	}
	if c1.ID != 1 || c1.Core != "1" || c1.Package != "0" || c1.Siblings != "1" || c1.CoreType != "" {
		t.Errorf("cpu1 topology = %+v", c1)
	}
	if d.IntelPstate != nil {
		t.Errorf("intel_pstate = %+v on a tree without it, want nil", d.IntelPstate)
	}
	wantCaches := []Cache{{1, "Data", "48K", "1"}, {1, "Instruction", "32K", "1"}, {2, "Unified", "2048K", "1"}, {3, "Unified", "266240K", "0-1"}}
	if !slices.Equal(c1.Caches, wantCaches) {
		t.Errorf("cpu1 caches = %v, want %v", c1.Caches, wantCaches)
	}
}

func TestDescribeLaptop(t *testing.T) {
	d := DescribeFS(fixture(t, "laptop"), testHost)
	if d.CPUModel != "12th Gen Intel(R) Core(TM) i7-1260P" || d.Microcode != "0x43b" {
		t.Errorf("model %q microcode %q", d.CPUModel, d.Microcode)
	}
	if d.Virtualized != "none" || d.SMT != "on" || d.THPEnabled != "[always] madvise never" {
		t.Errorf("hypervisor %q, smt %q, thp %q", d.Virtualized, d.SMT, d.THPEnabled)
	}
	if d.LogicalCPUs != 4 || d.PhysicalCores != 3 {
		t.Errorf("logical %d physical %d, want 4 and 3 (one SMT core, two single cores)", d.LogicalCPUs, d.PhysicalCores)
	}
	want := IntelPstate{Status: "active", NoTurbo: "0", MinPerfPct: "10", MaxPerfPct: "100"}
	if d.IntelPstate == nil || *d.IntelPstate != want {
		t.Errorf("intel_pstate = %+v, want %+v", d.IntelPstate, want)
	}
	p, e := d.CPUs[1], d.CPUs[2]
	if p.MaxKHz != "4700000" || p.BaseKHz != "2100000" || p.Siblings != "0-1" || p.CoreType != "performance" {
		t.Errorf("cpu1 = %+v, want a performance thread at 4.7/2.1 GHz sharing core 0-1", p)
	}
	if e.MaxKHz != "3400000" || e.BaseKHz != "1500000" || e.Siblings != "2" || e.CoreType != "efficiency" || e.Core != "8" {
		t.Errorf("cpu2 = %+v, want an efficiency core 8 at 3.4/1.5 GHz alone", e)
	}
	if e.Governor != "powersave" || e.EnergyPref != "power" || e.Driver != "intel_pstate" {
		t.Errorf("cpu2 policy = %q %q %q", e.Governor, e.EnergyPref, e.Driver)
	}
	if len(e.Caches) != 4 || e.Caches[2] != (Cache{2, "Unified", "2048K", "2-3"}) {
		t.Errorf("cpu2 caches = %v, want an L2 of 2048K shared by 2-3 third of four", e.Caches)
	}
}

func TestDescribeEmptyTree(t *testing.T) {
	d := DescribeFS(fixture(t, "empty"), Host{})
	for name, v := range map[string]string{"model": d.CPUModel, "microcode": d.Microcode, "smt": d.SMT,
		"thp": d.THPEnabled, "clocksource": d.Clocksource, "aslr": d.ASLR, "kernel": d.Kernel,
		"cc": d.CC, "hypervisor": d.Virtualized, "memtotal": d.MemTotal} {
		if v != Unknown {
			t.Errorf("%s = %q on an empty tree, want %q", name, v, Unknown)
		}
	}
	if d.LogicalCPUs != 0 || d.PhysicalCores != 0 || len(d.CPUs) != 0 {
		t.Errorf("an empty tree gave %d logical, %d physical CPUs", d.LogicalCPUs, d.PhysicalCores)
	}
	if _, err := json.Marshal(d); err != nil {
		t.Errorf("JSON of an empty description: %v", err)
	}
}

func TestParseCPUInfoArm(t *testing.T) {
	// The shape of /proc/cpuinfo on arm64: no model name, no flags line.
	info := parseCPUInfo([]byte("processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n\n" +
		"processor\t: 1\nBogoMIPS\t: 48.00\n\nHardware\t: BCM2835\n"))
	if info.model != "BCM2835" || info.microcode != Unknown || info.flags != nil {
		t.Errorf("arm cpuinfo: model %q microcode %q flags %v", info.model, info.microcode, info.flags)
	}
	if !slices.Equal(info.processors, []int{0, 1}) {
		t.Errorf("processors %v, want [0 1]", info.processors)
	}
	if hv := hypervisor(fixture(t, "empty"), info); hv != Unknown {
		t.Errorf("hypervisor without a flags line = %q, want %q", hv, Unknown)
	}
}

func TestParseCPUInfoMHz(t *testing.T) {
	info := parseCPUInfo(readFile(fixture(t, "laptop"), "proc/cpuinfo"))
	if info.mhz[1] != 3288.160 || info.mhz[3] != 1201.693 {
		t.Errorf("cpu MHz by processor = %v", info.mhz)
	}
}

func TestLinesLaptop(t *testing.T) {
	lines := DescribeFS(fixture(t, "laptop"), testHost).Lines()
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"cpu: 12th Gen Intel(R) Core(TM) i7-1260P",
		"microcode: 0x43b",
		"kernel: Linux 6.6.126-1-MANJARO",
		"cpu1: performance core, max 4700000 kHz, base 2100000 kHz, core shared with CPUs 0-1, governor powersave, energy_performance_preference power",
		"cpu3: efficiency core, max 3400000 kHz, base 1500000 kHz, core shared with CPUs 3,",
		"intel_pstate: status active, no_turbo 0, min_perf_pct 10, max_perf_pct 100",
		"transparent huge pages: enabled [always] madvise never, defrag always defer defer+madvise [madvise] never",
		"clocksource: tsc",
		"randomize_va_space: 2",
		"cc: cc (GCC) 14.2.1",
		"caches of cpu0: L1d 48K (CPUs 0-1), L1i 32K (CPUs 0-1), L2 1280K (CPUs 0-1), L3 18432K (CPUs 0-3)",
		"caches of cpu2: L1d 32K (CPUs 2), L1i 64K (CPUs 2), L2 2048K (CPUs 2-3)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Lines() lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "caches of cpu1") {
		t.Errorf("cpu1 shares cpu0's core, so its caches should not be listed again:\n%s", text)
	}
}

func TestLinesVM(t *testing.T) {
	text := strings.Join(DescribeFS(fixture(t, "vm"), testHost).Lines(), "\n")
	for _, want := range []string{"cpu0: core shared with CPUs 0, no cpufreq", "hypervisor: yes", "SMT notsupported", "caches of cpu1:"} {
		if !strings.Contains(text, want) {
			t.Errorf("Lines() lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "intel_pstate") {
		t.Errorf("Lines() mentions intel_pstate on a machine without it:\n%s", text)
	}
}

func TestToolVersion(t *testing.T) {
	if v := toolVersion("benchbook-no-such-tool", "--version"); v != Unknown {
		t.Errorf("missing tool gave %q, want %q", v, Unknown)
	}
	if v := toolVersion("sh", "-c", "exit 3"); v != Unknown {
		t.Errorf("failing tool gave %q, want %q", v, Unknown)
	}
	if v := toolVersion("sh", "-c", "printf '\\n  first line  \\nsecond\\n'"); v != "first line" {
		t.Errorf("first line = %q", v)
	}
}

func TestDescribeLive(t *testing.T) {
	d := Describe()
	if d.CPUModel == "" || d.CPUModel == Unknown {
		t.Errorf("CPU model %q", d.CPUModel)
	}
	if d.LogicalCPUs != runtime.NumCPU() {
		t.Errorf("LogicalCPUs %d, runtime.NumCPU() %d", d.LogicalCPUs, runtime.NumCPU())
	}
	if !strings.HasPrefix(d.Go, "go version go1.") {
		t.Logf("go version: %q (is go on PATH?)", d.Go)
	}
	for _, l := range d.Lines() {
		t.Log(l)
	}
}
