package machine

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// startOrphanSpinner starts a busy shell loop that is not a descendant of
// this process (its parent exits at once) and returns its pid; it stops by
// itself within 3 s, or when the test ends.
func startOrphanSpinner(t *testing.T) int {
	t.Helper()
	out, err := exec.Command("sh", "-c", `sh -c 'exec timeout 3 sh -c "while :; do :; done"' >/dev/null 2>&1 & echo $!`).Output()
	if err != nil {
		t.Skipf("cannot start a shell loop: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("pid %q: %v", out, err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGTERM) })
	return pid
}

func TestMeasureLive(t *testing.T) {
	measuretest.Gate(t)
	spinner := startOrphanSpinner(t)
	stop, err := Measure(1000) // every busy process, so that contention cannot push the loop out
	if err != nil {
		t.Fatal(err)
	}
	stopLoad, _, err := StartLoad(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	stopLoad()
	d, err := stop()
	if err != nil {
		t.Fatal(err)
	}
	if d.Seconds < 0.29 || len(d.BusyPct) < runtime.NumCPU() {
		t.Errorf("During: %.3f s, %d CPUs; want >= 0.29 s and %d CPUs", d.Seconds, len(d.BusyPct), runtime.NumCPU())
	}
	var seen bool
	for _, p := range d.Busiest {
		if p.PID == os.Getpid() {
			t.Errorf("own process in Busiest although its load thread was the busiest: %+v", d.Busiest)
		}
		// timeout forks the loop, so the busy shell is the spinner's child.
		if st, ok := readProcStat(p.PID); ok && (p.PID == spinner || st.PPID == spinner) && p.BusyPct > 0 {
			seen = true
		}
	}
	if !seen {
		t.Errorf("the orphan shell loop under pid %d is not among the busiest: %+v", spinner, d.Busiest)
	}
	t.Logf("during: %+v", d)
}

// readProcStat reads /proc/pid/stat.
func readProcStat(pid int) (ProcStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ProcStat{}, false
	}
	p, err := parseProcStat(string(b))
	return p, err == nil
}
