package machine

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ParseCPUList parses the range-list format of the kernel's CPU lists
// (/sys/devices/system/cpu/online, shared_cpu_list, thread_siblings_list,
// cpuset.cpus): comma-separated CPU numbers and inclusive ranges, as in
// "0-3,5,8-9". Surrounding white space is ignored and an empty list gives an
// empty, non-nil slice. The result is sorted and has no duplicates.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	cpus := []int{}
	if s == "" {
		return cpus, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, err := parseCPURange(part)
		if err != nil {
			return nil, fmt.Errorf("CPU list %q: %w", s, err)
		}
		for c := lo; c <= hi; c++ {
			cpus = append(cpus, c)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

// parseCPURange parses one element of a range list: "5" or "2-7".
func parseCPURange(part string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(strings.TrimSpace(part), "-")
	if lo, err = parseCPUNumber(a); err != nil {
		return 0, 0, err
	}
	if !isRange {
		return lo, lo, nil
	}
	if hi, err = parseCPUNumber(b); err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("range %q runs backwards", part)
	}
	return lo, hi, nil
}

// maxCPUNumber bounds a CPU number so that a corrupt list cannot make
// ParseCPUList allocate without limit (Linux's NR_CPUS is at most 8192).
const maxCPUNumber = 1 << 16

// parseCPUNumber parses one CPU number of a range list.
func parseCPUNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a CPU number", s)
	}
	if n > maxCPUNumber {
		return 0, fmt.Errorf("CPU number %d is beyond %d", n, maxCPUNumber)
	}
	return n, nil
}

// FormatCPUList writes CPU numbers in the kernel's range-list format, the
// inverse of ParseCPUList: [0 1 2 3 5] gives "0-3,5".
func FormatCPUList(cpus []int) string {
	sorted := slices.Compact(slices.Sorted(slices.Values(cpus)))
	var parts []string
	for i := 0; i < len(sorted); {
		j := i
		for j+1 < len(sorted) && sorted[j+1] == sorted[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(sorted[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", sorted[i], sorted[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// onlinePath is where the kernel lists the online CPUs, relative to "/".
const onlinePath = "sys/devices/system/cpu/online"

// OnlineCPUs returns the CPUs that are online, from
// /sys/devices/system/cpu/online.
func OnlineCPUs() ([]int, error) {
	return onlineCPUsFS(os.DirFS("/"))
}

// onlineCPUsFS reads the online CPU list from fsys.
func onlineCPUsFS(fsys fs.FS) ([]int, error) {
	b, err := fs.ReadFile(fsys, onlinePath)
	if err != nil {
		return nil, fmt.Errorf("online CPUs: %w", err)
	}
	cpus, err := ParseCPUList(string(b))
	if err != nil {
		return nil, fmt.Errorf("/%s: %w", onlinePath, err)
	}
	return cpus, nil
}

// CheckCPU returns nil if cpu is online, and otherwise an error that names
// the CPUs that are, so that a wrong pin= is explained where it is given.
func CheckCPU(cpu int) error {
	online, err := OnlineCPUs()
	if err != nil {
		return fmt.Errorf("check CPU %d: %w", cpu, err)
	}
	return checkCPUIn(cpu, online)
}

// checkCPUIn is CheckCPU against a known list of online CPUs.
func checkCPUIn(cpu int, online []int) error {
	if slices.Contains(online, cpu) {
		return nil
	}
	return fmt.Errorf("CPU %d is not online: the online CPUs are %s", cpu, FormatCPUList(online))
}
