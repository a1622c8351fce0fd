package records

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// The typed records: one struct per form of records.md, its fields tagged
// with their keys, in the form's order (TestTypedRecordsAreTheSpec holds
// each to its line). The host reads a record through Decode, never by a
// key spelled at the call.

// Start is the start record.
type Start struct {
	Lang    string `rec:"lang"`
	PID     int64  `rec:"pid"`
	Harness int64  `rec:"harness"`
}

// Layout is the layout record.
type Layout struct {
	StackPad  int64  `rec:"stack_pad"`
	HeapPad   int64  `rec:"heap_pad"`
	StackAddr string `rec:"stack_addr"`
	HeapAddr  string `rec:"heap_addr"`
	TextAddr  string `rec:"text_addr"`
	ASLR      int64  `rec:"aslr"`
}

// Pinned is the pinned record.
type Pinned struct {
	CPU int64 `rec:"cpu"`
}

// Cold is the cold record.
type Cold struct {
	Variant string `rec:"variant"`
	NS      int64  `rec:"ns"`
	Minflt  int64  `rec:"minflt"`
	After   string `rec:"after"`
}

// Clock is the clock record.
type Clock struct {
	MinStepNS      int64   `rec:"min_step_ns"`
	ReadCostNS     float64 `rec:"read_cost_ns"`
	ReadCostMeanNS float64 `rec:"read_cost_mean_ns"`
	Reads          int64   `rec:"reads"`
	Spaced         string  `rec:"spaced"`
	Source         string  `rec:"source"`
}

// Gaps is the gaps record.
type Gaps struct {
	WindowNS    int64 `rec:"window_ns"`
	ThresholdNS int64 `rec:"threshold_ns"`
	Count       int64 `rec:"count"`
	TotalNS     int64 `rec:"total_ns"`
	MaxNS       int64 `rec:"max_ns"`
}

// Setup is the phase record of the kernel's setup.
type Setup struct {
	NS     int64 `rec:"ns"`
	Minflt int64 `rec:"minflt"`
}

// GC is the phase record of the Go driver's collection after setup.
type GC struct {
	NS int64 `rec:"ns"`
}

// Pages is the pages record.
type Pages struct {
	Mode          string `rec:"mode"`
	AdvisedBytes  int64  `rec:"advised_bytes"`
	AnonHugeKB    int64  `rec:"anon_huge_kb"`
	CollapseErrno int64  `rec:"collapse_errno"`
}

// Evict is the phase record of the eviction before a cold pass after setup.
type Evict struct {
	NS    int64  `rec:"ns"`
	Bytes int64  `rec:"bytes"`
	Huge  int64  `rec:"huge"`
	How   string `rec:"how"`
}

// Settle is the phase record of the settle.
type Settle struct {
	NS     int64 `rec:"ns"`
	Passes int64 `rec:"passes"`
	Stable int64 `rec:"stable"`
}

// Batch is a batch record.
type Batch struct {
	Slot    int64  `rec:"slot"`
	Variant string `rec:"variant"`
	K       int64  `rec:"k"`
	NS      int64  `rec:"ns"`
	GoalNS  int64  `rec:"goal_ns"`
	Timings int64  `rec:"timings"`
}

// Freq is a freq record (when=before or when=after).
type Freq struct {
	When       string  `rec:"when"`
	MHz        float64 `rec:"mhz"`
	NS         int64   `rec:"ns"`
	MedianNS   int64   `rec:"median_ns"`
	WorstNS    int64   `rec:"worst_ns"`
	Iterations int64   `rec:"iterations"`
	Adds       int64   `rec:"adds"`
}

// Warmup is the phase record of the warmup.
type Warmup struct {
	NS     int64 `rec:"ns"`
	Passes int64 `rec:"passes"`
}

// Sample is a sample record.
type Sample struct {
	Round  int64 `rec:"round"`
	Slot   int64 `rec:"slot"`
	Pos    int64 `rec:"pos"`
	K      int64 `rec:"k"`
	NS     int64 `rec:"ns"`
	Minflt int64 `rec:"minflt"` // -1: not counted
}

// Syscalls is the syscalls record.
type Syscalls struct {
	AfterDiscarded int64 `rec:"after_discarded"`
	Between        int64 `rec:"between"`
	Samples        int64 `rec:"samples"`
}

// Checksum is a checksum record.
type Checksum struct {
	Slot   int64   `rec:"slot"`
	Got    float64 `rec:"got"`
	Want   float64 `rec:"want"`
	Passes int64   `rec:"passes"`
}

// Ticks is a ticks record (when=start or when=end).
type Ticks struct {
	When       string  `rec:"when"`
	Source     string  `rec:"source"`
	TicksPerUS float64 `rec:"ticks_per_us"`
	WindowNS   int64   `rec:"window_ns"`
	CPUFlags   string  `rec:"cpu_flags"`
}

// LatencyBuckets is a latency_buckets record.
type LatencyBuckets struct {
	Slot    int64  `rec:"slot"`
	Buckets string `rec:"buckets"`
}

// Pairs are the buckets the record lists, as index and count. Reader
// has checked the list (check): a pair that is not two integers is left out.
func (r LatencyBuckets) Pairs() [][2]int64 {
	var out [][2]int64
	for _, item := range strings.Split(r.Buckets, ",") {
		i, n, _ := strings.Cut(item, ":")
		ii, e1 := strconv.ParseInt(i, 10, 64)
		nn, e2 := strconv.ParseInt(n, 10, 64)
		if e1 == nil && e2 == nil {
			out = append(out, [2]int64{ii, nn})
		}
	}
	return out
}

// check says what is wrong with the bucket list: each item index:count,
// both integers, the index from 0 and the count from 1.
func (r LatencyBuckets) check() error {
	for _, item := range strings.Split(r.Buckets, ",") {
		i, n, ok := strings.Cut(item, ":")
		ii, e1 := strconv.ParseInt(i, 10, 64)
		nn, e2 := strconv.ParseInt(n, 10, 64)
		if !ok || e1 != nil || e2 != nil || ii < 0 || nn < 1 {
			return fmt.Errorf("latency_buckets: %q is not index:count (two integers, a count of at least 1)", item)
		}
	}
	return nil
}

// Latency is a latency record.
type Latency struct {
	Slot          int64   `rec:"slot"`
	Variant       string  `rec:"variant"`
	Ops           int64   `rec:"ops"`
	Passes        int64   `rec:"passes"`
	N             int64   `rec:"n"`
	MaxTicks      int64   `rec:"max_ticks"`
	OverheadTicks int64   `rec:"overhead_ticks"`
	TicksPerUS    float64 `rec:"ticks_per_us"`
	Nonempty      int64   `rec:"nonempty"`
	MaxPass       int64   `rec:"max_pass"`
	MaxOp         int64   `rec:"max_op"`
	MaxAtNS       int64   `rec:"max_at_ns"`
	EmptyMaxTicks int64   `rec:"empty_max_ticks"`
	MaxRunDelayNS int64   `rec:"max_run_delay_ns"`
	MaxNivcsw     int64   `rec:"max_nivcsw"`
}

// Error is an error record.
type Error struct {
	Msg string `rec:"msg"`
}

// Done is the done record.
type Done struct {
	Stopped int64 `rec:"stopped"`
}

// recordForm is the kind (and phase name) each typed record decodes.
var recordForm = map[reflect.Type][2]string{
	reflect.TypeFor[Start]():          {"start", ""},
	reflect.TypeFor[Layout]():         {"layout", ""},
	reflect.TypeFor[Pinned]():         {"pinned", ""},
	reflect.TypeFor[Cold]():           {"cold", ""},
	reflect.TypeFor[Clock]():          {"clock", ""},
	reflect.TypeFor[Gaps]():           {"gaps", ""},
	reflect.TypeFor[Setup]():          {"phase", "setup"},
	reflect.TypeFor[GC]():             {"phase", "gc"},
	reflect.TypeFor[Pages]():          {"pages", ""},
	reflect.TypeFor[Evict]():          {"phase", "evict"},
	reflect.TypeFor[Settle]():         {"phase", "settle"},
	reflect.TypeFor[Batch]():          {"batch", ""},
	reflect.TypeFor[Freq]():           {"freq", ""},
	reflect.TypeFor[Warmup]():         {"phase", "warmup"},
	reflect.TypeFor[Sample]():         {"sample", ""},
	reflect.TypeFor[Syscalls]():       {"syscalls", ""},
	reflect.TypeFor[Checksum]():       {"checksum", ""},
	reflect.TypeFor[Ticks]():          {"ticks", ""},
	reflect.TypeFor[LatencyBuckets](): {"latency_buckets", ""},
	reflect.TypeFor[Latency]():        {"latency", ""},
	reflect.TypeFor[Error]():          {"error", ""},
	reflect.TypeFor[Done]():           {"done", ""},
}

// Is says whether r is a record of the form T decodes: its kind, and for
// a phase its name.
func Is[T any](r Record) bool {
	f, ok := recordForm[reflect.TypeFor[T]()]
	return ok && r.Kind == f[0] && (f[1] == "" || r.Fields["name"] == f[1])
}

// Decode reads r as a T, one of the typed records above. An error names
// the record's line and what was wrong: r is of another kind, a field is
// missing, or its value is not of the field's type. Reader has held
// every line to records.md and decoded it (Record.Value), so an error here
// means a record made by hand.
func Decode[T any](r Record) (T, error) {
	var v T
	t := reflect.TypeFor[T]()
	f, ok := recordForm[t]
	if !ok {
		return v, fmt.Errorf("%s is not a typed record", t)
	}
	if !Is[T](r) {
		want := f[0]
		if f[1] != "" {
			want += " name=" + f[1]
		}
		return v, fmt.Errorf("line %d: a %s record read as %s", r.Line, r.Kind, want)
	}
	return v, decodeInto(reflect.ValueOf(&v).Elem(), r)
}

// typeOf is the typed record of r's kind (and phase name), if it has one.
func typeOf(r Record) (reflect.Type, bool) {
	for t, kn := range recordForm {
		if r.Kind == kn[0] && (kn[1] == "" || r.Fields["name"] == kn[1]) {
			return t, true
		}
	}
	return nil, false
}

// decodeValue is r as its typed record (a Start, a Sample, ...).
func decodeValue(r Record) (any, error) {
	t, ok := typeOf(r)
	if !ok {
		return nil, fmt.Errorf("line %d: no typed record reads a %s record", r.Line, r.Kind)
	}
	v := reflect.New(t).Elem()
	if err := decodeInto(v, r); err != nil {
		return nil, err
	}
	if c, ok := v.Interface().(interface{ check() error }); ok {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("line %d: %v", r.Line, err)
		}
	}
	return v.Interface(), nil
}

// decodeInto sets each tagged field of the struct rv from r.
func decodeInto(rv reflect.Value, r Record) error {
	t := rv.Type()
	for i := range t.NumField() {
		key := t.Field(i).Tag.Get("rec")
		if key == "" {
			continue
		}
		s, ok := r.Fields[key]
		if !ok {
			return fmt.Errorf("line %d: %s record has no %s", r.Line, r.Kind, key)
		}
		fv := rv.Field(i)
		switch fv.Kind() {
		case reflect.Int64:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("line %d: %s=%q is not an integer", r.Line, key, s)
			}
			fv.SetInt(n)
		case reflect.Float64:
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fmt.Errorf("line %d: %s=%q is not a number", r.Line, key, s)
			}
			fv.SetFloat(x)
		case reflect.String:
			fv.SetString(s)
		default:
			panic(fmt.Sprintf("%s.%s: a record field is int64, float64 or string", t, t.Field(i).Name))
		}
	}
	return nil
}
