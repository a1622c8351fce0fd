package records

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// The typed records are generated from records.md (typed_gen.go, by
// Typed): one struct per form, its fields tagged with their keys in the
// form's order. The host reads a record through Decode, never by a key
// spelled at the call.
//
//go:generate go run ./gentyped typed_gen.go

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
