package machine

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// statLine builds a /proc/[pid]/stat line with the given command and the
// fields this package reads; the others are zero.
func statLine(pid int, comm string, ppid, utime, stime, start, processor int) string {
	f := make([]string, 50) // fields 3..52
	for i := range f {
		f[i] = "0"
	}
	f[0] = "S"
	set := map[int]int{statPPID: ppid, statUTime: utime, statSTime: stime, statStartTime: start, statProcessor: processor}
	for i, v := range set {
		f[i] = strconv.Itoa(v)
	}
	return strconv.Itoa(pid) + " (" + comm + ") " + strings.Join(f, " ")
}

func TestParseProcStat(t *testing.T) {
	tests := []struct {
		name, line string
		want       ProcStat
	}{
		{"real line of this VM (bash)",
			"1058 (bash) S 1057 1058 1058 0 -1 4194560 13905 2555592 0 237 6 6 5542 1249 20 0 1 0 3213 5443584 934 18446744073709551615 93859030061056 93859030850461 140726081885568 0 0 0 0 4 1132560123 1 0 0 17 0 0 0 0 0 0 93859031083760 93859031132004 93859974270976 140726081887069 140726081887084 140726081887084 140726081888234 0",
			ProcStat{PID: 1058, PPID: 1057, Comm: "bash", Ticks: 12, StartTicks: 3213, Processor: 0}},
		{"comm with spaces and parentheses",
			"4242 ((sd-pam) x)) S 4241 4241 4241 0 -1 1077936448 46 0 0 0 1500 250 0 0 20 0 1 0 1750 104529920 1024 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 2 0 0 0 0 0 0 0 0 0 0 0 0 0",
			ProcStat{PID: 4242, PPID: 4241, Comm: "(sd-pam) x)", Ticks: 1750, StartTicks: 1750, Processor: 2}},
		{"comm that looks like fields",
			statLine(7, ") R 1 2 3 (", 1, 2, 3, 4, 5),
			ProcStat{PID: 7, PPID: 1, Comm: ") R 1 2 3 (", Ticks: 5, StartTicks: 4, Processor: 5}},
		{"empty comm", statLine(9, "", 2, 0, 0, 0, 1), ProcStat{PID: 9, PPID: 2, Comm: "", Processor: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseProcStat(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseProcStatErrors(t *testing.T) {
	tests := []struct{ name, line, mention string }{
		{"no parentheses", "12 bash S 1 2 3", "no (command)"},
		{"closing before opening", "12 )bash( S 1", "no (command)"},
		{"pid not a number", "x1 (bash) S 1", `"x1 "`},
		{"truncated", "12 (bash) S 1 2 3", "want at least 37"},
		{"utime not a number", strings.Replace(statLine(12, "a", 1, 2, 3, 4, 5), " 2 3 ", " u 3 ", 1), "field 14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseProcStat(tt.line)
			if err == nil || !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("parseProcStat(%q): error %v, want one mentioning %q", tt.line, err, tt.mention)
			}
		})
	}
}

func TestSnapshotProcsFixture(t *testing.T) {
	s, err := snapshotProcsFS(fixture(t, "laptop"))
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(s.Procs)); !slices.Equal(got, []int{1, 4242, 4300}) {
		t.Fatalf("pids %v, want [1 4242 4300] (proc/self skipped)", got)
	}
	if p := s.Procs[4300]; p.Comm != "cc1 -O2 (x)" || p.PPID != 4242 || p.Ticks != 750 || p.Processor != 1 {
		t.Errorf("pid 4300 = %+v", p)
	}
	tree := s.Descendants(4241)
	if want := map[int]bool{4241: true, 4242: true, 4300: true}; !maps.Equal(tree, want) {
		t.Errorf("descendants of 4241 = %v, want %v", tree, want)
	}
	if tree := s.Descendants(4300); !maps.Equal(tree, map[int]bool{4300: true}) {
		t.Errorf("descendants of a leaf = %v", tree)
	}
}

func TestBusiest(t *testing.T) {
	snap := func(ps ...ProcStat) ProcSnapshot {
		s := ProcSnapshot{Procs: map[int]ProcStat{}}
		for _, p := range ps {
			s.Procs[p.PID] = p
		}
		return s
	}
	before := snap(
		ProcStat{PID: 10, Comm: "steady", Ticks: 1000, StartTicks: 5, Processor: 0},
		ProcStat{PID: 11, Comm: "idle", Ticks: 400, StartTicks: 5},
		ProcStat{PID: 12, Comm: "reused", Ticks: 9000, StartTicks: 5},
		ProcStat{PID: 13, Comm: "self", Ticks: 0, StartTicks: 5},
		ProcStat{PID: 14, Comm: "gone", Ticks: 0, StartTicks: 5},
		ProcStat{PID: 16, Comm: "tie b", Ticks: 0, StartTicks: 5},
		ProcStat{PID: 15, Comm: "tie a", Ticks: 0, StartTicks: 5},
	)
	after := snap(
		ProcStat{PID: 10, Comm: "steady", Ticks: 1150, StartTicks: 5, Processor: 6}, // 150 ticks
		ProcStat{PID: 11, Comm: "idle", Ticks: 400, StartTicks: 5},                  // none: left out
		ProcStat{PID: 12, Comm: "reused", Ticks: 30, StartTicks: 900},               // new process: 30
		ProcStat{PID: 13, Comm: "self", Ticks: 200, StartTicks: 5},                  // excluded
		ProcStat{PID: 20, Comm: "new", Ticks: 100, StartTicks: 950, Processor: 3},   // born in between
		ProcStat{PID: 16, Comm: "tie b", Ticks: 20, StartTicks: 5},
		ProcStat{PID: 15, Comm: "tie a", Ticks: 20, StartTicks: 5},
	)
	exclude := func(pid int) bool { return pid == 13 }
	got := Busiest(before, after, 2, exclude, 10)
	// 150 ticks in 2 s = 1.5 s of CPU over 2 s = 75% of one CPU.
	want := []ProcUse{
		{PID: 10, Command: "steady", CPU: 6, BusyPct: 75},
		{PID: 20, Command: "new", CPU: 3, BusyPct: 50},
		{PID: 12, Command: "reused", BusyPct: 15},
		{PID: 15, Command: "tie a", BusyPct: 10},
		{PID: 16, Command: "tie b", BusyPct: 10},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Busiest =\n%+v\nwant\n%+v", got, want)
	}
	if top := Busiest(before, after, 2, exclude, 2); !slices.Equal(top, want[:2]) {
		t.Errorf("top 2 = %+v", top)
	}
	if all := Busiest(before, after, 2, nil, 1); len(all) != 1 || all[0].PID != 13 {
		t.Errorf("without exclusion, the busiest is self (pid 13, 100%%): %+v", all)
	}
	if none := Busiest(before, after, 0, nil, 5); none == nil || len(none) != 0 {
		t.Errorf("zero seconds gave %v, want an empty list", none)
	}
}

func TestSnapshotProcsLive(t *testing.T) {
	s, err := SnapshotProcs()
	if err != nil {
		t.Fatal(err)
	}
	self, ok := s.Procs[os.Getpid()]
	if !ok {
		t.Fatalf("own pid %d not in the snapshot of %d processes", os.Getpid(), len(s.Procs))
	}
	if self.PPID != os.Getppid() {
		t.Errorf("own ppid %d, os.Getppid() %d", self.PPID, os.Getppid())
	}
	tree, err := Descendants(os.Getppid())
	if err != nil {
		t.Fatal(err)
	}
	if !tree[os.Getpid()] {
		t.Errorf("this process is not among the descendants of its parent: %v", tree)
	}
}
