package records

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// formatRecord writes a record as a driver does: its kind, then key=value
// fields separated by single spaces (sorted here, msg last: it runs to the
// end of the line).
func formatRecord(r Record) string {
	parts := []string{r.Kind}
	for _, k := range slices.Sorted(maps.Keys(r.Fields)) {
		if k != "msg" {
			parts = append(parts, k+"="+r.Fields[k])
		}
	}
	if v, ok := r.Fields["msg"]; ok {
		parts = append(parts, "msg="+v)
	}
	return strings.Join(parts, " ")
}

// FuzzRecords reads arbitrary bytes as a record file (NewReader) and
// each line as a record (Parse): nothing panics; every line is a
// record of records.md, or the reader stops with an error naming its line,
// or it is the last line, cut short, and skipped; records are numbered by
// their line; a record has a
// known kind, reads back the same once written out again, and its Int and
// Float accessors never panic (an integer is a number too).
//
//	go test ./internal/records -run '^$' -fuzz '^FuzzRecords$' -fuzztime 60s
func FuzzRecords(f *testing.F) {
	f.Add([]byte("start lang=c pid=4242 harness=3\n" +
		"layout stack_pad=0 heap_pad=64 stack_addr=0x7ffd1000 heap_addr=0x5555a000 text_addr=0x401000 aslr=1\n" +
		"pinned cpu=1\ncold variant=sink ns=1200 minflt=3 after=start\n" +
		"clock min_step_ns=17 read_cost_ns=18.5 read_cost_mean_ns=19.2 reads=1000 spaced=16-40 source=clock_gettime\n" +
		"gaps window_ns=1000000 threshold_ns=5000 count=0 total_ns=0 max_ns=0\n" +
		"phase name=setup ns=1000 minflt=12\nphase name=gc ns=10\nphase name=evict ns=200 bytes=33554432 huge=0 how=flush\n" +
		"phase name=settle ns=100000000 passes=40 stable=1\nphase name=warmup ns=2000 passes=1\n" +
		"batch slot=0 variant=sink k=8 ns=9000 goal_ns=10000 timings=3\n" +
		"sample round=0 slot=1 pos=2 k=1 ns=1234 minflt=0\n" +
		"checksum slot=0 got=917504 want=917504.0 passes=70\n" +
		"error msg=setup failed: out of memory = yes\ndone stopped=0\n"))
	f.Add([]byte("start lang=go pid=1 harness=3\r\nsample round=0 slot=0 pos=0 k=1 ns=9223372036854775808 minflt=-1\r\nsample round=1 slot=0 pos=0 k=1 ns=1e3 minf"))
	f.Add([]byte("bogus a=1\n\nsample round\nsample  round=1\nerror msg=\ndone\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rr := NewReader(bytes.NewReader(data))
		n, last := 0, 0
		for rr.Scan() {
			r := rr.Record()
			if r.Line <= last {
				t.Fatalf("record on line %d after line %d", r.Line, last)
			}
			last = r.Line
			if _, ok := typeOf(r); !ok || reflect.TypeOf(r.Value) != func() reflect.Type { t, _ := typeOf(r); return t }() {
				t.Fatalf("line %d: a %s record read as %T", r.Line, r.Kind, r.Value)
			}
			n++
		}
		cut := len(data) > 0 && data[len(data)-1] != '\n'
		if rr.Skipped() > 1 || rr.Skipped() == 1 && !cut {
			t.Fatalf("%d lines skipped (only a last line without a newline may be)", rr.Skipped())
		}
		if rr.Err() == nil {
			lines := bytes.Count(data, []byte("\n"))
			if cut {
				lines++
			}
			if n+rr.Skipped() != lines {
				t.Fatalf("%d records and %d skipped of %d lines", n, rr.Skipped(), lines)
			}
		} else if !strings.HasPrefix(rr.Err().Error(), "line ") && !strings.HasPrefix(rr.Err().Error(), "after line ") {
			t.Fatalf("an error that names no line: %v", rr.Err())
		}
		for _, line := range strings.Split(string(data), "\n") {
			r, ok := Parse(line)
			if !ok {
				continue
			}
			if _, ok := forms[r.Kind]; !ok {
				t.Fatalf("record of kind %q", r.Kind)
			}
			for k := range r.Fields {
				_, errI := r.Int(k)
				_, errF := r.Float(k)
				if errI == nil && errF != nil {
					t.Fatalf("%s=%q is an integer but not a number: %v", k, r.Fields[k], errF)
				}
			}
			if _, err := r.Int("no such key"); err == nil {
				t.Fatal("Int of a missing key without an error")
			}
			if slices.ContainsFunc(slices.Collect(maps.Values(r.Fields)), func(v string) bool { return strings.HasSuffix(v, "\r") }) {
				continue // written last, its \r would end the line, which Parse trims
			}
			text := formatRecord(r)
			back, ok := Parse(text)
			if !ok || back.Kind != r.Kind || !maps.Equal(back.Fields, r.Fields) {
				t.Fatalf("record %q written as %q reads as %+v (%v)", line, text, back, ok)
			}
		}
	})
}
