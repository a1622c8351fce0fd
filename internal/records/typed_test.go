package records

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// Every form of records.md has one typed record whose tagged fields are
// its keys in its order (a phase's name=, which picks the type, aside),
// and every typed record is of a form records.md lists.
func TestTypedRecordsAreTheSpec(t *testing.T) {
	covered := map[string]bool{}
	for typ, kn := range recordForm {
		var keys []string
		for i := range typ.NumField() {
			if k := typ.Field(i).Tag.Get("rec"); k != "" {
				keys = append(keys, k)
			} else {
				t.Errorf("%s.%s has no rec tag", typ, typ.Field(i).Name)
			}
		}
		n := 0
		for _, f := range forms[kn[0]] {
			fields := f.Fields
			if kn[1] != "" {
				if len(fields) == 0 || fields[0].Type != kn[1] {
					continue
				}
				fields = fields[1:] // name=setup: the type says it
			}
			var want []string
			for _, ff := range fields {
				want = append(want, ff.Key)
			}
			if !slices.Equal(keys, want) {
				t.Errorf("%s reads %v; records.md: %s", typ, keys, f.Line)
			}
			if covered[f.Line] {
				t.Errorf("two typed records read %q", f.Line)
			}
			covered[f.Line] = true
			n++
		}
		if n == 0 {
			t.Errorf("%s decodes %v, which records.md does not list", typ, kn)
		}
	}
	for _, f := range Forms() {
		if !covered[f.Line] {
			t.Errorf("records.md lists %q, which no typed record reads", f.Line)
		}
	}
}

// A record file is read to the end, or to the first line that is not a
// record of records.md, whose number and fault the error says; only a last
// line without its newline (a killed process) is skipped.
func TestRecordReaderHoldsLinesToTheSpec(t *testing.T) {
	const start = "start lang=c pid=7 harness=10\n"
	const sample = "sample round=0 slot=0 pos=0 k=1 ns=100 minflt=-1\n"
	cases := []struct {
		name, data string
		records    int
		skipped    int
		err        string // a part of the error, "" for none
	}{
		{"whole", start + sample + "done stopped=0\n", 3, 0, ""},
		{"cut short", start + sample + "sample round=1 slot=0 po", 2, 1, ""},
		{"a whole last record without its newline", start + "done stopped=0", 2, 0, ""},
		{"a bad value", start + "sample round=0 slot=0 pos=0 k=1 ns=1e3 minflt=0\n" + sample, 1, 0, `line 2: sample record: ns="1e3" is not an integer`},
		{"an older form", start + "phase name=evict ns=5 bytes=64 huge=0\n", 1, 0, "line 2: phase record ends before how"},
		{"a field too many", start + "pinned cpu=1 node=0\n", 1, 0, `line 2: pinned record: "node=0" after its last field`},
		{"fields out of order", "start pid=7 lang=c harness=10\n", 0, 0, `line 1: start record: field 1 is "pid=7", not lang=`},
		{"an unknown phase", start + "phase name=nap ns=5\n", 1, 0, `line 2: phase "name=nap" is no phase record`},
		{"no record", start + "hello world\n" + sample, 1, 0, `line 2: "hello" is no kind of record`},
		{"an empty line", start + "\n" + sample, 1, 0, "line 2:"},
		{"a bad bucket list", start + "latency_buckets slot=0 buckets=1:2,x:3\n", 1, 0, `line 2: latency_buckets: "x:3" is not index:count`},
		{"a line too long", start + "error msg=" + strings.Repeat("x", 70000) + "\n", 1, 0, "after line 1: bufio.Scanner: token too long"},
	}
	for _, c := range cases {
		rr := NewReader(strings.NewReader(c.data))
		n := 0
		for rr.Scan() {
			n++
		}
		err := rr.Err()
		switch {
		case n != c.records || rr.Skipped() != c.skipped:
			t.Errorf("%s: %d records, %d skipped; want %d and %d (%v)", c.name, n, rr.Skipped(), c.records, c.skipped, err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
		}
	}
}

// Decode fills a typed record, and says which line and field are wrong in
// a record made by hand, or that the record is of another kind.
func TestDecode(t *testing.T) {
	rec, _ := Parse("sample round=3 slot=1 pos=0 k=8 ns=12345 minflt=-1")
	rec.Line = 9
	s, err := Decode[Sample](rec)
	if err != nil || s != (Sample{Round: 3, Slot: 1, Pos: 0, K: 8, NS: 12345, Minflt: -1}) {
		t.Errorf("Decode: %+v, %v", s, err)
	}
	if _, err := Decode[Clock](rec); err == nil || !strings.Contains(err.Error(), "line 9: a sample record read as clock") {
		t.Errorf("a sample as a clock: %v", err)
	}
	phase, _ := Parse("phase name=setup ns=10 minflt=2")
	if !Is[Setup](phase) || Is[Warmup](phase) {
		t.Error("Is does not tell a setup phase from a warmup")
	}
	if _, err := Decode[Warmup](phase); err == nil || !strings.Contains(err.Error(), "read as phase name=warmup") {
		t.Errorf("a setup phase as the warmup: %v", err)
	}
	delete(rec.Fields, "k")
	if _, err := Decode[Sample](rec); err == nil || err.Error() != "line 9: sample record has no k" {
		t.Errorf("no k: %v", err)
	}
	rec.Fields["k"] = "eight"
	if _, err := Decode[Sample](rec); err == nil || err.Error() != `line 9: k="eight" is not an integer` {
		t.Errorf("k=eight: %v", err)
	}
	c, _ := Parse("checksum slot=0 got=nan want=1.5 passes=2")
	if v, err := Decode[Checksum](c); err != nil || v.Want != 1.5 || v.Got == v.Got {
		t.Errorf("checksum: %+v, %v", v, err)
	}
	if _, err := Decode[struct{ X int }](c); err == nil {
		t.Error("Decode of an untyped struct without an error")
	}
}

// typed_gen.go is what Typed writes from records.md today: a field added
// to a form of records.md and not generated fails here, as does a hand
// edit of the generated file. And the rules Typed names types by hold: a
// phase's name= names its type, freq's when= is a field.
func TestTypedRecordsAreGenerated(t *testing.T) {
	want, err := Typed()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("typed_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("typed_gen.go is not what records.md generates: run go generate ./internal/records")
	}
	for _, s := range []string{"type Setup struct", "type Warmup struct", "type Freq struct {\n\tWhen ", "TicksPerUS float64", "MaxAtNS       int64"} {
		if !strings.Contains(string(want), s) {
			t.Errorf("the generated records lack %q", s)
		}
	}
}

// Two forms of one type with other fields are refused by name: the
// generator would otherwise drop one form's fields.
func TestTypedRefusesFormsThatDisagree(t *testing.T) {
	saved, savedKinds := forms, formKinds
	defer func() { forms, formKinds = saved, savedKinds }()
	forms, formKinds = parseForms("```records\nfreq when=before mhz=FLOAT\nfreq when=after mhz=INT\n```\n")
	if _, err := Typed(); err == nil || !strings.Contains(err.Error(), "freq when=after mhz=INT") {
		t.Errorf("forms that disagree: %v", err)
	}
}
