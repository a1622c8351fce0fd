package records

import (
	"bufio"
	"bytes"
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
	// Value is the record as its typed record (typed_gen.go: a Sample, a
	// Clock, ...), set by Reader, which holds every line to
	// records.md first, and by Parse when the line is of its form.
	Value any
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

// Reader reads records like bufio.Scanner: Scan, Record, Err. Every
// line is held to records.md (CheckLine): one that is not a record of its
// form stops the reading with an error that names its line and what was
// wrong, but for a last line with no newline, which a killed process cut
// short (a record goes out with its newline in one write): that one is
// skipped and counted.
type Reader struct {
	sc      *bufio.Scanner
	cur     Record
	line    int
	skipped int
	cut     bool // the token just read had no newline
	err     error
}

// NewReader returns a reader of r.
func NewReader(r io.Reader) *Reader {
	rr := &Reader{sc: bufio.NewScanner(r)}
	rr.sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			rr.cut = false
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			rr.cut = true
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	return rr
}

// Scan advances to the next record.
func (rr *Reader) Scan() bool {
	if rr.err != nil {
		return false
	}
	for rr.sc.Scan() {
		rr.line++
		text := strings.TrimRight(rr.sc.Text(), "\r")
		if err := CheckLine(text); err != nil {
			if rr.cut {
				rr.skipped++
				continue
			}
			rr.err = fmt.Errorf("line %d: %v", rr.line, err)
			return false
		}
		rec, _ := Parse(text)
		rec.Line = rr.line
		v, err := decodeValue(rec)
		if err != nil {
			rr.err = err
			return false
		}
		rec.Value = v
		rr.cur = rec
		return true
	}
	if err := rr.sc.Err(); err != nil {
		rr.err = fmt.Errorf("after line %d: %v", rr.line, err)
	}
	return false
}

// Record returns the record read by the last Scan.
func (rr *Reader) Record() Record { return rr.cur }

// Err returns the first error: a line that is not a record of records.md,
// or a read error.
func (rr *Reader) Err() error { return rr.err }

// Skipped returns how many lines were not records: at most the last one,
// cut short.
func (rr *Reader) Skipped() int { return rr.skipped }

// Parse parses one line: a kind then key=value fields. The value of
// "msg" runs to the end of the line.
func Parse(line string) (Record, bool) {
	kind, rest, _ := strings.Cut(strings.TrimRight(line, "\r"), " ")
	if forms[kind] == nil {
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
	if CheckLine(line) == nil {
		rec.Value, _ = decodeValue(rec)
	}
	return rec, true
}
