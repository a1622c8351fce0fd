package machine

import (
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

func TestParseCPUTimesFixture(t *testing.T) {
	times, err := readCPUTimesFS(fixture(t, "laptop"))
	if err != nil {
		t.Fatal(err)
	}
	want := []CPUTime{
		{CPU: 0, User: 40, System: 20, Idle: 200, IOWait: 10, IRQ: 2, SoftIRQ: 3},
		{CPU: 1, User: 30, Nice: 10, System: 10, Idle: 300, IOWait: 5, IRQ: 1, SoftIRQ: 1},
		{CPU: 2, User: 20, System: 10, Idle: 250, IOWait: 5, IRQ: 1, SoftIRQ: 1},
		{CPU: 3, User: 10, System: 10, Idle: 250, IRQ: 1},
	}
	if !slices.Equal(times.CPUs, want) {
		t.Errorf("cpu lines = %+v\nwant %+v", times.CPUs, want)
	}
}

func TestParseCPUTimesLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []CPUTime
		err      string
	}{
		{name: "total line skipped, steal read, guest columns ignored",
			in:   "cpu  9 9 9 9 9 9 9 9 9 9\ncpu0 1 2 3 4 5 6 7 8 90 91\n",
			want: []CPUTime{{0, 1, 2, 3, 4, 5, 6, 7, 8}}},
		{name: "old kernel with four columns",
			in:   "cpu3 10 0 5 100\n",
			want: []CPUTime{{CPU: 3, User: 10, System: 5, Idle: 100}}},
		{name: "offline CPU 1 missing from the list",
			in:   "cpu0 1 0 0 1\ncpu2 2 0 0 2\n",
			want: []CPUTime{{CPU: 0, User: 1, Idle: 1}, {CPU: 2, User: 2, Idle: 2}}},
		{name: "unknown line that starts with cpu",
			in:  "cpu0 1 0 0 1\ncpu2 2 0 0 2\ncpufreq-like-junk\n",
			err: `line 3: "cpufreq-like-junk" is not a CPU line`},
		{name: "too few values", in: "cpu0 1 2 3\n", err: "line 1: cpu0 has 3 values"},
		{name: "not a number", in: "cpu0 1 2 x 4\n", err: `line 1: cpu0 value 3: "x"`},
		{name: "no cpu lines", in: "intr 1 2\nctxt 5\n", err: "no cpuN lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCPUTimes([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.CPUs, tt.want) {
				t.Errorf("got %+v, want %+v", got.CPUs, tt.want)
			}
		})
	}
}

func TestBusyPct(t *testing.T) {
	before := CPUTimes{CPUs: []CPUTime{
		{CPU: 0, User: 100, System: 50, Idle: 1000, IOWait: 10},
		{CPU: 1, User: 100, Idle: 1000},
		{CPU: 2, User: 5, Idle: 5},
		{CPU: 3, User: 7, Idle: 7, IOWait: 50},
	}}
	after := CPUTimes{CPUs: []CPUTime{
		// +20 user +5 system +5 softirq +5 steal busy; +60 idle +5 iowait: 35 of 100.
		{CPU: 0, User: 120, System: 55, Idle: 1060, IOWait: 15, SoftIRQ: 5, Steal: 5},
		// no tick at all in between
		{CPU: 1, User: 100, Idle: 1000},
		// all busy: +10 user +10 nice
		{CPU: 2, User: 15, Nice: 10, Idle: 5},
		// iowait stepped back by 10 while idle grew 2 and user 30: total +22,
		// idle -8, clamped to 0, so all busy rather than 136%
		{CPU: 3, User: 37, Idle: 9, IOWait: 40},
		// CPU 5 came online in between; CPU 4 is offline
		{CPU: 5, User: 1, Idle: 1},
	}}
	want := []float64{35, NotMeasured, 100, 100, NotMeasured, NotMeasured}
	got := BusyPct(before, after)
	if len(got) != len(want) {
		t.Fatalf("BusyPct = %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Errorf("CPU %d busy %.3f%%, want %.3f%%", i, got[i], want[i])
		}
	}
}

// TestClockTicksMatchAuxv checks ClockTicksPerSecond against AT_CLKTCK,
// the value the kernel hands every process in its auxiliary vector and
// sysconf(_SC_CLK_TCK) returns.
func TestClockTicksMatchAuxv(t *testing.T) {
	const atClkTck = 17
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		t.Skipf("no auxv: %v", err)
	}
	word := int(unsafe.Sizeof(uintptr(0)))
	for i := 0; i+2*word <= len(b); i += 2 * word {
		key, val := readWord(b[i:], word), readWord(b[i+word:], word)
		if key == atClkTck {
			if val != ClockTicksPerSecond {
				t.Errorf("AT_CLKTCK is %d, ClockTicksPerSecond %d", val, ClockTicksPerSecond)
			}
			return
		}
	}
	t.Errorf("no AT_CLKTCK in %d bytes of auxv", len(b))
}

// readWord reads one native-endian word of size 4 or 8.
func readWord(b []byte, size int) uint64 {
	if size == 4 {
		return uint64(binary.NativeEndian.Uint32(b))
	}
	return binary.NativeEndian.Uint64(b)
}
