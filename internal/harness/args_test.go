package harness

import (
	"slices"
	"strings"
	"testing"
)

// Argv writes every flag of records.md's options table from a field of
// Args, each at most once, and no flag the table does not list; a zero
// Args writes only what the driver always needs from the host (slots, the
// settle bound, warmup and rounds), so a field left unset is the driver's
// default, never a value the caller did not choose.
func TestArgsTable(t *testing.T) {
	_, table := recordsSpec(t)
	pin, floor, seed := 3, 2.5, uint64(7)
	full := Args{Out: "f", Slots: []string{"a", "b"}, Batch: []int64{1, 8}, Cold: "a", ColdAfterSetup: true, EvictBytes: 1 << 20,
		Layout: &Layout{StackPad: 16, HeapPad: 32, NoASLR: true}, Pin: &pin, SettleMS: 20, SettleMinMS: &floor, Warmup: 1,
		Rounds: 3, CalibrateReads: 100, Clock: true, GapsMS: 100, OrderSeed: &seed, Pages: "huge", Freq: true, Step: true,
		StepRounds: 1, StepWarmup: 1}
	argv := full.Argv()
	if argv[0] != "run" {
		t.Fatalf("argv %q does not start with run", argv)
	}
	var flags []string
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
		}
	}
	for _, f := range flags {
		if !slices.Contains(table, f) {
			t.Errorf("Argv writes %s, which records.md's table does not list", f)
		}
		if n := strings.Count(" "+strings.Join(flags, " ")+" ", " "+f+" "); n != 1 {
			t.Errorf("Argv writes %s %d times", f, n)
		}
	}
	for _, f := range table {
		if !slices.Contains(flags, f) {
			t.Errorf("records.md lists %s, and no field of Args writes it", f)
		}
	}
	want := "run -out f -slots a,b -batch 1,8 -cold a -cold-after-setup -evict-bytes 1048576 -stack-pad 16 -heap-pad 32 -no-aslr " +
		"-pin 3 -settle-ms 20 -settle-min-ms 2.5 -warmup 1 -rounds 3 -calibrate-reads 100 -clock -gaps-ms 100 -order-seed 7 " +
		"-pages huge -freq -step -step-rounds 1 -step-warmup 1"
	if got := strings.Join(argv, " "); got != want {
		t.Errorf("Argv:\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(Args{Slots: []string{"a"}}.Argv(), " "); got != "run -slots a -settle-ms 0 -warmup 0 -rounds 0" {
		t.Errorf("zero Args: %s", got)
	}
}
