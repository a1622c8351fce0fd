package machine

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// fixture returns the root of testdata/name, a small copy of a machine's
// /proc and /sys: "vm" is this project's 2-vCPU VM without cpufreq,
// "laptop" a hybrid i7-1260P cut down to 4 CPUs (two SMT threads of a
// performance core, two efficiency cores) with cpufreq and intel_pstate.
func fixture(t *testing.T, name string) fs.FS {
	t.Helper()
	dir := filepath.Join("testdata", name)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("fixture tree: %v", err)
	}
	return os.DirFS(dir)
}
