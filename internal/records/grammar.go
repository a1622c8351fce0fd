package records

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// records.md is the spec of the driver protocol; its records block is also
// the grammar the host holds every record line to when it reads one
// (Reader), so the spec and the reader cannot drift apart.
//
//go:embed records.md
var recordsMD string

// A Form is one line of records.md's records block: a kind, then its
// fields in order. A field whose type is not INT, FLOAT, WORD or TEXT is a
// literal (phase has one form per name).
type Form struct {
	Line   string // the line as records.md writes it
	Kind   string
	Fields []FormField
}

// FormField is one key=TYPE of a Form.
type FormField struct{ Key, Type string }

// Literal says whether the field's value is fixed (name=setup).
func (f FormField) Literal() bool {
	switch f.Type {
	case "INT", "FLOAT", "WORD", "TEXT":
		return false
	}
	return true
}

// check says what is wrong with v as a value of f, or nil.
func (f FormField) check(v string) error {
	switch f.Type {
	case "INT":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return fmt.Errorf("%s=%q is not an integer", f.Key, v)
		}
	case "FLOAT":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return fmt.Errorf("%s=%q is not a number", f.Key, v)
		}
	case "WORD", "TEXT":
		if v == "" {
			return fmt.Errorf("%s is empty", f.Key)
		}
	default:
		if v != f.Type {
			return fmt.Errorf("%s=%q is not %s", f.Key, v, f.Type)
		}
	}
	return nil
}

// forms is records.md's records block, by kind, in its order.
var forms, formKinds = parseForms(recordsMD)

// parseForms reads the records block of a records.md. It panics on a block
// that is not one: the file is embedded, so a test of the package sees it.
func parseForms(md string) (map[string][]Form, []string) {
	byKind := map[string][]Form{}
	var kinds []string
	inBlock := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case line == "```records":
			inBlock = true
		case inBlock && line == "```":
			inBlock = false
		case inBlock:
			words := strings.Fields(line)
			if len(words) == 0 {
				panic("records.md: an empty line in the records block")
			}
			f := Form{Line: line, Kind: words[0]}
			for _, w := range words[1:] {
				k, typ, ok := strings.Cut(w, "=")
				if !ok {
					panic(fmt.Sprintf("records.md: %q in %q is not key=TYPE", w, line))
				}
				f.Fields = append(f.Fields, FormField{k, typ})
			}
			if byKind[f.Kind] == nil {
				kinds = append(kinds, f.Kind)
			}
			byKind[f.Kind] = append(byKind[f.Kind], f)
		}
	}
	if len(kinds) == 0 {
		panic("records.md has no records block")
	}
	return byKind, kinds
}

// Forms returns the forms of records.md, in its order.
func Forms() []Form {
	var all []Form
	for _, k := range formKinds {
		all = append(all, forms[k]...)
	}
	return all
}

// FormOf returns the form of records.md a record of a known kind must have:
// the kind's one form, or, for a kind of several (phase, freq), the form
// whose first field's literal is first (the value of the record's first
// field: name=setup, when=before).
func FormOf(kind, first string) (Form, bool) {
	fs := forms[kind]
	if len(fs) == 1 {
		return fs[0], true
	}
	for _, f := range fs {
		if len(f.Fields) > 0 && f.Fields[0].Literal() && f.Fields[0].Type == first {
			return f, true
		}
	}
	return Form{}, false
}

// CheckLine says what is wrong with line as a record of records.md (its
// fields in order, each of its type), or nil. A line of no known kind is
// an error too.
func CheckLine(line string) error {
	kind, rest, _ := strings.Cut(strings.TrimRight(line, "\r"), " ")
	if forms[kind] == nil {
		if len(kind) > 40 {
			kind = kind[:40] + "..."
		}
		return fmt.Errorf("%q is no kind of record records.md lists", kind)
	}
	first, _, _ := strings.Cut(rest, " ")
	_, value, _ := strings.Cut(first, "=")
	f, ok := FormOf(kind, value)
	if !ok {
		return fmt.Errorf("%s %q is no %s record records.md lists", kind, first, kind)
	}
	for i, ff := range f.Fields {
		if rest == "" {
			return fmt.Errorf("%s record ends before %s (records.md: %s)", kind, ff.Key, f.Line)
		}
		var field string
		if ff.Type == "TEXT" {
			field, rest = rest, ""
		} else {
			field, rest, _ = strings.Cut(rest, " ")
		}
		k, v, ok := strings.Cut(field, "=")
		if !ok || k != ff.Key {
			return fmt.Errorf("%s record: field %d is %q, not %s= (records.md: %s)", kind, i+1, field, ff.Key, f.Line)
		}
		if err := ff.check(v); err != nil {
			return fmt.Errorf("%s record: %v (records.md: %s)", kind, err, f.Line)
		}
	}
	if rest != "" {
		if len(rest) > 60 {
			rest = rest[:60] + "..."
		}
		return fmt.Errorf("%s record: %q after its last field (records.md: %s)", kind, rest, f.Line)
	}
	return nil
}
