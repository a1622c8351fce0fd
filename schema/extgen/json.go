package extgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Obj is a JSON object that keeps its keys in the order it was read, so
// that a schema written by hand is written back as it was, with only what
// Fill adds. Values are *Obj, []any, json.Number, string, bool or nil.
type Obj struct {
	Keys []string
	Vals map[string]any
}

// Get is the value of key, or nil.
func (o *Obj) Get(key string) any {
	if o == nil {
		return nil
	}
	return o.Vals[key]
}

// Obj is the object at key, or nil.
func (o *Obj) Obj(key string) *Obj {
	v, _ := o.Get(key).(*Obj)
	return v
}

// Set sets key to v, after the key after (at the end if after is "" or
// not a key of o), or in place if key is already there.
func (o *Obj) Set(key string, v any, after string) {
	if o.Vals == nil {
		o.Vals = map[string]any{}
	}
	if _, ok := o.Vals[key]; !ok {
		at := len(o.Keys)
		for i, k := range o.Keys {
			if k == after {
				at = i + 1
			}
		}
		o.Keys = append(o.Keys[:at], append([]string{key}, o.Keys[at:]...)...)
	}
	o.Vals[key] = v
}

// Parse reads a JSON document whose top is an object.
func Parse(raw []byte) (*Obj, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	v, err := parseValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("after the schema's object: %v", err)
	}
	o, ok := v.(*Obj)
	if !ok {
		return nil, fmt.Errorf("the schema is a %T, not an object", v)
	}
	return o, nil
}

func parseValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &Obj{Vals: map[string]any{}}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			key := k.(string)
			v, err := parseValue(d)
			if err != nil {
				return nil, err
			}
			if _, dup := o.Vals[key]; dup {
				return nil, fmt.Errorf("key %q twice in one object", key)
			}
			o.Keys = append(o.Keys, key)
			o.Vals[key] = v
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		list := []any{}
		for d.More() {
			v, err := parseValue(d)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := d.Token()
		return list, err
	}
	return tok, nil
}

// Marshal writes o as encoding/json's MarshalIndent with two spaces does,
// and a newline at the end.
func (o *Obj) Marshal() []byte {
	var b bytes.Buffer
	write(&b, o, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func write(b *bytes.Buffer, v any, depth int) {
	pad := func(d int) { b.WriteString("\n" + strings.Repeat("  ", d)) }
	switch v := v.(type) {
	case *Obj:
		if len(v.Keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			write(b, k, depth+1)
			b.WriteString(": ")
			write(b, v.Vals[k], depth+1)
		}
		pad(depth)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			write(b, x, depth+1)
		}
		pad(depth)
		b.WriteByte(']')
	case json.Number:
		b.WriteString(v.String())
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			panic(err) // strings, bools and nil marshal
		}
		b.Write(raw)
	}
}
