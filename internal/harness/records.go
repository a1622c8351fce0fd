package harness

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Record is one line a kernel binary wrote: its kind ("start", "layout", "pinned",
// "cold", "clock", "gaps", "phase", "pages", "batch", "freq", "sample", "syscalls", "checksum",
// "error", "done") and its key=value fields. records.md is the spec of every kind.
type Record struct {
	Kind   string
	Fields map[string]string
	Line   int
}

// Int returns an integer field, or an error naming the record's line.
func (r Record) Int(key string) (int64, error) {
	v, ok := r.Fields[key]
	if !ok {
		return 0, fmt.Errorf("line %d: %s record has no %s", r.Line, r.Kind, key)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("line %d: %s=%q is not an integer", r.Line, key, v)
	}
	return n, nil
}

// Float returns a floating-point field, or an error naming the record's line.
func (r Record) Float(key string) (float64, error) {
	v, ok := r.Fields[key]
	if !ok {
		return 0, fmt.Errorf("line %d: %s record has no %s", r.Line, r.Kind, key)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("line %d: %s=%q is not a number", r.Line, key, v)
	}
	return f, nil
}

// RecordReader reads records like bufio.Scanner: Scan, Record, Err. A line
// that is not a record (a truncated last line of a killed process) is
// skipped and counted, not an error.
type RecordReader struct {
	sc      *bufio.Scanner
	cur     Record
	line    int
	skipped int
}

// NewRecordReader returns a reader of r.
func NewRecordReader(r io.Reader) *RecordReader {
	return &RecordReader{sc: bufio.NewScanner(r)}
}

// Scan advances to the next record.
func (rr *RecordReader) Scan() bool {
	for rr.sc.Scan() {
		rr.line++
		rec, ok := ParseRecord(rr.sc.Text())
		if !ok {
			rr.skipped++
			continue
		}
		rec.Line = rr.line
		rr.cur = rec
		return true
	}
	return false
}

// Record returns the record read by the last Scan.
func (rr *RecordReader) Record() Record { return rr.cur }

// Err returns the first read error.
func (rr *RecordReader) Err() error { return rr.sc.Err() }

// Skipped returns how many lines were not records.
func (rr *RecordReader) Skipped() int { return rr.skipped }

// kinds are the record kinds of records.md (TestRecordsSpecKinds).
var kinds = map[string]bool{"start": true, "cold": true, "clock": true, "gaps": true, "phase": true, "batch": true,
	"sample": true, "syscalls": true, "checksum": true, "pinned": true, "error": true, "done": true, "layout": true, "freq": true,
	"ticks": true, "latency_buckets": true, "latency": true, // these three: BENCH_OPS (latency.c, latency.go)
	"pages": true} // -pages

// ParseRecord parses one line: a kind then key=value fields. The value of
// "msg" runs to the end of the line.
func ParseRecord(line string) (Record, bool) {
	kind, rest, _ := strings.Cut(strings.TrimRight(line, "\r"), " ")
	if !kinds[kind] {
		return Record{}, false
	}
	rec := Record{Kind: kind, Fields: map[string]string{}}
	for rest != "" {
		var field string
		if strings.HasPrefix(rest, "msg=") {
			field, rest = rest, ""
		} else {
			field, rest, _ = strings.Cut(rest, " ")
		}
		k, v, ok := strings.Cut(field, "=")
		if !ok {
			return Record{}, false
		}
		rec.Fields[k] = v
	}
	return rec, true
}
