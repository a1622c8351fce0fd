package machine

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// busyOver returns each CPU's busy share over d.
func busyOver(t *testing.T, d time.Duration) []float64 {
	t.Helper()
	before, err := ReadCPUTimes()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(d)
	after, err := ReadCPUTimes()
	if err != nil {
		t.Fatal(err)
	}
	return BusyPct(before, after)
}

// threadStat reads this process's thread tid, or reports false once the
// thread is gone.
func threadStat(t *testing.T, tid int) (ProcStat, bool) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		return ProcStat{}, false
	}
	p, err := parseProcStat(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return p, true
}

// loneCPU picks the last online CPU and returns it with the others, to
// avoid.
func loneCPU(t *testing.T) (int, []int) {
	t.Helper()
	online, err := OnlineCPUs()
	if err != nil {
		t.Fatal(err)
	}
	target := online[len(online)-1]
	return target, slices.DeleteFunc(slices.Clone(online), func(c int) bool { return c == target })
}

func TestStartLoadLive(t *testing.T) {
	measuretest.Gate(t)
	target, avoid := loneCPU(t)
	const window = 300 * time.Millisecond
	// The machine is shared: other work may keep the CPU busy, and then a
	// load cannot add 50 points. Such an attempt proves nothing either way;
	// the test fails only if the CPU was quiet before and the load did not
	// show, and is skipped if the CPU was never quiet.
	quiet := 0
	for attempt := 1; attempt <= 5; attempt++ {
		idle := busyOver(t, window)[target]
		loaded := loadedBusy(t, target, avoid, window)
		t.Logf("attempt %d: CPU %d busy %.0f%% without load, %.0f%% with", attempt, target, idle, loaded)
		if loaded-idle > 50 {
			return
		}
		if idle < 40 {
			quiet++
		}
	}
	if quiet == 0 {
		t.Skipf("CPU %d was over 40%% busy before every attempt: other work on the machine", target)
	}
	t.Errorf("CPU %d was quiet before %d attempts, yet one load thread never added 50 points", target, quiet)
}

// loadedBusy runs one load thread on target for window and returns the
// CPU's busy share meanwhile, after checking where the thread ran and that
// stop ended it.
func loadedBusy(t *testing.T, target int, avoid []int, window time.Duration) float64 {
	t.Helper()
	stop, info, err := StartLoad(1, avoid)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.CPUs, []int{target}) || len(info.TIDs) != 1 || info.Note != "" {
		stop()
		t.Fatalf("StartLoad(1, %v) = %+v, want one thread on CPU %d", avoid, info, target)
	}
	busy := busyOver(t, window)[target]
	st, ok := threadStat(t, info.TIDs[0])
	stop()
	if !ok || st.Processor != target || st.Ticks == 0 {
		t.Errorf("load thread %d: exists %v, last on CPU %d, %d ticks; want CPU %d and some ticks",
			info.TIDs[0], ok, st.Processor, st.Ticks, target)
	}
	waitThreadStopped(t, info.TIDs[0])
	return busy
}

// waitThreadStopped fails the test unless the load thread tid of this
// process stops within two seconds (times measuretest.Factor). A locked goroutine that exits ends its
// thread, except the process's main thread, which the Go runtime parks
// instead: that one must stop gaining CPU time.
func waitThreadStopped(t *testing.T, tid int) {
	t.Helper()
	for deadline := time.Now().Add(measuretest.Scale(2 * time.Second)); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		st, ok := threadStat(t, tid)
		if !ok {
			return
		}
		if tid == os.Getpid() {
			time.Sleep(200 * time.Millisecond)
			if later, _ := threadStat(t, tid); later.Ticks == st.Ticks {
				return
			}
		}
	}
	st, _ := threadStat(t, tid)
	t.Errorf("load thread %d (this process is %d) still runs 2 s after stop: %+v", tid, os.Getpid(), st)
}

func TestStartLoadWrapsAndStops(t *testing.T) {
	target, avoid := loneCPU(t)
	stop, info, err := StartLoad(3, avoid)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	stop() // a second stop is harmless
	if !slices.Equal(info.CPUs, []int{target, target, target}) || len(info.TIDs) != 3 {
		t.Errorf("3 threads on one allowed CPU: %+v", info)
	}
	for _, tid := range info.TIDs {
		waitThreadStopped(t, tid)
	}
}

func TestStartLoadEverythingAvoided(t *testing.T) {
	online, err := OnlineCPUs()
	if err != nil {
		t.Fatal(err)
	}
	stop, info, err := StartLoad(1, online)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if info.CPUs != nil || !strings.Contains(info.Note, "not pinned") || len(info.TIDs) != 1 {
		t.Errorf("all CPUs avoided: %+v, want one unpinned thread and a note", info)
	}
}

func TestStartLoadArguments(t *testing.T) {
	if _, _, err := StartLoad(-1, nil); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("k = -1: error %v", err)
	}
	stop, info, err := StartLoad(0, nil)
	if err != nil || len(info.TIDs) != 0 {
		t.Fatalf("k = 0: %+v, %v", info, err)
	}
	stop()
}
