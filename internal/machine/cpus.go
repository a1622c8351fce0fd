package machine

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// readCPUs describes each CPU of ids from its /sys directory.
func readCPUs(fsys fs.FS, ids []int) []CPU {
	types := coreTypes(fsys)
	cpus := make([]CPU, 0, len(ids))
	for _, id := range ids {
		cpus = append(cpus, readCPU(fsys, id, types[id]))
	}
	return cpus
}

// readCPU reads /sys/devices/system/cpu/cpuN: its topology, its cpufreq
// settings (all "unknown" where the kernel has no cpufreq driver, as in
// most VMs) and its caches.
func readCPU(fsys fs.FS, id int, coreType string) CPU {
	dir := fmt.Sprintf("%s/cpu%d", cpuRoot, id)
	topo, freq := dir+"/topology/", dir+"/cpufreq/"
	siblings := readValue(fsys, topo+"thread_siblings_list")
	if siblings == Unknown {
		siblings = readValue(fsys, topo+"core_cpus_list")
	}
	return CPU{
		ID:         id,
		Core:       readValue(fsys, topo+"core_id"),
		Package:    readValue(fsys, topo+"physical_package_id"),
		Siblings:   siblings,
		MaxKHz:     readValue(fsys, freq+"cpuinfo_max_freq"),
		BaseKHz:    readValue(fsys, freq+"base_frequency"),
		Governor:   readValue(fsys, freq+"scaling_governor"),
		EnergyPref: readValue(fsys, freq+"energy_performance_preference"),
		Driver:     readValue(fsys, freq+"scaling_driver"),
		Caches:     readCaches(fsys, dir+"/cache"),
		CoreType:   coreType,
	}
}

// readCaches reads the index* directories of a CPU's cache directory in
// index order (L1d, L1i, L2, L3 on x86), or returns nil if there are none.
func readCaches(fsys fs.FS, dir string) []Cache {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var indexes []int
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), "index"); ok {
			if i, err := strconv.Atoi(n); err == nil {
				indexes = append(indexes, i)
			}
		}
	}
	slices.Sort(indexes)
	var caches []Cache
	for _, i := range indexes {
		caches = append(caches, readCache(fsys, path.Join(dir, "index"+strconv.Itoa(i))))
	}
	return caches
}

// readCache reads one cache/indexN directory; a level it cannot read is 0.
func readCache(fsys fs.FS, dir string) Cache {
	level, _ := strconv.Atoi(readValue(fsys, dir+"/level"))
	return Cache{
		Level:  level,
		Type:   readValue(fsys, dir+"/type"),
		Size:   readValue(fsys, dir+"/size"),
		Shared: readValue(fsys, dir+"/shared_cpu_list"),
	}
}

// coreTypes maps each CPU of a hybrid processor to "performance" or
// "efficiency", from the CPU lists of the kernel's two core PMUs; it is
// empty on other processors.
func coreTypes(fsys fs.FS) map[int]string {
	types := map[int]string{}
	for _, t := range []struct{ file, name string }{
		{"sys/devices/cpu_core/cpus", "performance"},
		{"sys/devices/cpu_atom/cpus", "efficiency"},
	} {
		cpus, err := ParseCPUList(string(readFile(fsys, t.file)))
		if err != nil {
			continue
		}
		for _, c := range cpus {
			types[c] = t.name
		}
	}
	return types
}

// physicalCores counts the distinct cores of cpus: by their sibling lists,
// or by package and core id where a list is unknown. It returns 0 if some
// CPU has neither.
func physicalCores(cpus []CPU) int {
	cores := map[string]bool{}
	for _, c := range cpus {
		switch {
		case c.Siblings != Unknown:
			cores["siblings "+c.Siblings] = true
		case c.Package != Unknown && c.Core != Unknown:
			cores["core "+c.Package+"/"+c.Core] = true
		default:
			return 0
		}
	}
	return len(cores)
}
