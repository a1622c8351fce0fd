package machine

import (
	"os"
	"runtime"
	"testing"

	driver "github.com/benchbook/benchbook/internal/harness/go/bench"
)

func TestChainAddsSum(t *testing.T) {
	for _, n := range []uint64{0, 1, 7, 1000} {
		if got, want := driver.FreqChain(n, 3), n*driver.FreqAdds*3; driver.FreqChainExact && got != want {
			t.Errorf("FreqChain(%d, 3) = %d, want %d (64 adds of 3 per iteration)", n, got, want)
		}
	}
	// The Go chain from 0, by hand: ^3 gives 3, +3 gives 6; then 5, 8;
	// 11, 14; 13, 16.
	if got := driver.FreqChainGo(1, 3); got != 16 {
		t.Errorf("driver.FreqChainGo(1, 3) = %d, want 16", got)
	}
	if got := driver.FreqChainGo(0, 3); got != 0 {
		t.Errorf("driver.FreqChainGo(0, 3) = %d, want 0", got)
	}
}

func TestCalibrateFailsOnInstantChain(t *testing.T) {
	_, err := estimateFrequency(func(n, step uint64) uint64 { return n }, 64)
	if err == nil {
		t.Fatal("a chain that takes no time gave an estimate")
	}
}

// cpuinfoMHz is the "cpu MHz" of the first processor in /proc/cpuinfo, or 0.
func cpuinfoMHz(t *testing.T) float64 {
	t.Helper()
	info := parseCPUInfo(readFile(os.DirFS("/"), "proc/cpuinfo"))
	return info.mhz[info.processors[0]]
}

func TestEstimateFrequencyLive(t *testing.T) {
	mhz, err := EstimateFrequency()
	if err != nil {
		t.Fatal(err)
	}
	if mhz < 200 || mhz > 10000 {
		t.Errorf("estimate %.0f MHz is outside 200 MHz to 10 GHz", mhz)
	}
	t.Logf("estimate %.0f MHz (exact chain: %v); /proc/cpuinfo cpu MHz %.0f", mhz, driver.FreqChainExact, cpuinfoMHz(t))
	if runtime.GOARCH != "amd64" {
		return
	}
	// The Go chain, used on other arches, should agree with the assembly
	// within a factor of 2 if each of its operations takes one cycle.
	goMHz, err := estimateFrequency(driver.FreqChainGo, driver.FreqGoOps)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the pure-Go chain estimates %.0f MHz", goMHz)
	if goMHz < mhz/2 || goMHz > mhz*2 {
		t.Errorf("pure-Go chain %.0f MHz and assembly %.0f MHz differ by more than 2x", goMHz, mhz)
	}
}

func BenchmarkEstimateFrequency(b *testing.B) {
	var mhz float64
	for b.Loop() {
		var err error
		if mhz, err = EstimateFrequency(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(mhz, "MHz")
}
