package machine

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Host is what a Description takes from outside the file system: the
// kernel as uname reports it and the versions of the toolchain.
type Host struct {
	Kernel string // uname sysname and release, e.g. "Linux 6.6.126-1-MANJARO"
	Arch   string // uname machine, e.g. "x86_64"
	CC     string // first line of `cc --version`
	Go     string // first line of `go version`
}

// toolTimeout bounds each `cc --version` and `go version`: a missing or
// hanging tool makes its version "unknown", never a stuck description.
const toolTimeout = 3 * time.Second

// Describe describes this machine: it reads / and asks uname, cc and go.
// Whatever the machine does not expose is "unknown"; Describe never fails.
func Describe() Description {
	return DescribeFS(os.DirFS("/"), ReadHost())
}

// ReadHost asks uname for the kernel and runs `cc --version` and
// `go version` (each with a short timeout) for the toolchain. The go command
// runs in the current directory, so a go.mod there that selects another
// toolchain is reflected as the build would see it.
func ReadHost() Host {
	h := Host{Kernel: Unknown, Arch: runtime.GOARCH}
	var u unix.Utsname
	if err := unix.Uname(&u); err == nil {
		h.Kernel = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
		h.Arch = unix.ByteSliceToString(u.Machine[:])
	}
	h.CC = toolVersion("cc", "--version")
	h.Go = toolVersion("go", "version")
	return h
}

// toolVersion runs name with args and returns the first non-empty line of
// its output, or Unknown if it is absent, fails or times out.
func toolVersion(name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), toolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = toolTimeout
	out, err := cmd.Output()
	if err != nil {
		return Unknown
	}
	return firstLine(out)
}

// firstLine returns the first non-blank line of b, trimmed, or Unknown.
func firstLine(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			return line
		}
	}
	return Unknown
}

// DescribeFS describes the machine whose root file system is fsys (paths
// such as "proc/cpuinfo" and "sys/devices/system/cpu"), with host for what
// no file holds. Tests pass fixture trees; Describe passes os.DirFS("/").
func DescribeFS(fsys fs.FS, host Host) Description {
	info := parseCPUInfo(readFile(fsys, "proc/cpuinfo"))
	d := Description{
		CPUModel:    info.model,
		Microcode:   info.microcode,
		Arch:        orUnknown(host.Arch),
		SMT:         readValue(fsys, cpuRoot+"/smt/control"),
		THPEnabled:  readValue(fsys, "sys/kernel/mm/transparent_hugepage/enabled"),
		THPDefrag:   readValue(fsys, "sys/kernel/mm/transparent_hugepage/defrag"),
		Clocksource: readValue(fsys, "sys/devices/system/clocksource/clocksource0/current_clocksource"),
		ASLR:        readValue(fsys, "proc/sys/kernel/randomize_va_space"),
		Kernel:      orUnknown(host.Kernel),
		CC:          orUnknown(host.CC),
		Go:          orUnknown(host.Go),
		Virtualized: hypervisor(fsys, info),
		MemTotal:    memTotal(readFile(fsys, "proc/meminfo")),
		IntelPstate: readIntelPstate(fsys),
	}
	ids := cpuIDs(fsys, info)
	d.LogicalCPUs = len(ids)
	d.CPUs = readCPUs(fsys, ids)
	d.PhysicalCores = physicalCores(d.CPUs)
	return d
}

// cpuRoot is the kernel's CPU directory, relative to "/".
const cpuRoot = "sys/devices/system/cpu"

// cpuIDs returns the online CPUs, or if /sys does not list them, one per
// processor block of /proc/cpuinfo.
func cpuIDs(fsys fs.FS, info cpuInfo) []int {
	if ids, err := onlineCPUsFS(fsys); err == nil {
		return ids
	}
	return info.processors
}

// readFile returns the content of name in fsys, or nil if it cannot be read.
func readFile(fsys fs.FS, name string) []byte {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil
	}
	return b
}

// readValue returns the trimmed content of a one-value file such as those
// of /sys, or Unknown if it is missing, unreadable or empty.
func readValue(fsys fs.FS, name string) string {
	return orUnknown(strings.TrimSpace(string(readFile(fsys, name))))
}

// orUnknown returns s, or Unknown if s is empty.
func orUnknown(s string) string {
	if s == "" {
		return Unknown
	}
	return s
}

// cpuInfo is what a Description takes from /proc/cpuinfo.
type cpuInfo struct {
	model, microcode string
	flags            []string // of the first processor; nil if it has none
	processors       []int    // the "processor" numbers, in order
	mhz              map[int]float64
}

// parseCPUInfo parses /proc/cpuinfo: the model and microcode of the first
// processor that has them, its flags, the processor numbers, and the
// "cpu MHz" of each processor (on x86 the kernel's last reading of the
// clock; in a VM often the nominal frequency).
func parseCPUInfo(b []byte) cpuInfo {
	info := cpuInfo{model: Unknown, microcode: Unknown, mhz: map[int]float64{}}
	fields := map[string]string{}
	current := -1
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if _, seen := fields[key]; !seen {
			fields[key] = value
		}
		switch key {
		case "processor":
			if n, err := strconv.Atoi(value); err == nil {
				current = n
				info.processors = append(info.processors, n)
			}
		case "cpu MHz":
			if f, err := strconv.ParseFloat(value, 64); err == nil && current >= 0 {
				info.mhz[current] = f
			}
		}
	}
	// The keys that name the CPU, best first: x86 writes "model name", some
	// arm kernels "Processor" or "Hardware", powerpc "cpu".
	for _, k := range []string{"model name", "Processor", "cpu model", "Hardware", "cpu"} {
		if v := fields[k]; v != "" {
			info.model = v
			break
		}
	}
	info.microcode = orUnknown(fields["microcode"])
	if f, ok := fields["flags"]; ok {
		info.flags = strings.Fields(f)
	}
	return info
}

// hypervisor reports the cpuinfo hypervisor flag: the hypervisor type from
// /sys/hypervisor/type if the kernel names it, "yes" if not, "none" if the
// flags do not have it, and Unknown if cpuinfo has no flags (as on arm).
func hypervisor(fsys fs.FS, info cpuInfo) string {
	if info.flags == nil {
		return Unknown
	}
	for _, f := range info.flags {
		if f == "hypervisor" {
			if t := readValue(fsys, "sys/hypervisor/type"); t != Unknown {
				return t
			}
			return "yes"
		}
	}
	return "none"
}

// memTotal returns the MemTotal value of /proc/meminfo, e.g. "24684084 kB".
func memTotal(meminfo []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			return orUnknown(strings.Join(strings.Fields(v), " "))
		}
	}
	return Unknown
}

// readIntelPstate reads /sys/devices/system/cpu/intel_pstate, or returns
// nil if the directory does not exist.
func readIntelPstate(fsys fs.FS) *IntelPstate {
	dir := path.Join(cpuRoot, "intel_pstate")
	if st, err := fs.Stat(fsys, dir); err != nil || !st.IsDir() {
		return nil
	}
	return &IntelPstate{
		Status:     readValue(fsys, dir+"/status"),
		NoTurbo:    readValue(fsys, dir+"/no_turbo"),
		MinPerfPct: readValue(fsys, dir+"/min_perf_pct"),
		MaxPerfPct: readValue(fsys, dir+"/max_perf_pct"),
	}
}
