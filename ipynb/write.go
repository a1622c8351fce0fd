package ipynb

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/benchbook/benchbook/internal/atomicfile"
)

// cellIDRE is nbformat 4.5's pattern for cell ids (1 to 64 characters).
var cellIDRE = regexp.MustCompile(`^[a-zA-Z0-9-_]{1,64}$`)

// WriteFile writes nb to path as nbformat 4.5, atomically (see WriteAtomic).
func WriteFile(path string, nb *Notebook) error {
	data, err := nb.Marshal()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteAtomic(path, data)
}

// Marshal encodes nb as nbformat 4.5 JSON in Jupyter's layout (keys sorted,
// one-space indent, multiline strings as lists of lines). It first gives every
// cell without a valid, unique id a new one and sets the minor version to 5;
// both changes stay in nb, so a notebook keeps its ids across writes.
func (nb *Notebook) Marshal() ([]byte, error) {
	nb.ensureIDs()
	if nb.NBFormatMinor < 5 {
		nb.NBFormatMinor = 5
	}
	cells := make([]any, len(nb.Cells))
	for i, c := range nb.Cells {
		cells[i] = c.jsonValue()
	}
	doc := map[string]any{"nbformat": 4, "nbformat_minor": nb.NBFormatMinor, "metadata": orEmpty(nb.Metadata), "cells": cells}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding the notebook: %w", err)
	}
	return buf.Bytes(), nil
}

// ensureIDs gives a fresh id to every cell whose id is missing, invalid or
// already taken by an earlier cell.
func (nb *Notebook) ensureIDs() {
	seen := make(map[string]bool, len(nb.Cells))
	for _, c := range nb.Cells {
		if !cellIDRE.MatchString(c.ID) || seen[c.ID] {
			c.ID = newCellID(seen)
		}
		seen[c.ID] = true
	}
}

// newCellID returns 8 random hex digits not in seen (as nbformat makes them).
func newCellID(seen map[string]bool) string {
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		if id := hex.EncodeToString(b[:]); !seen[id] {
			return id
		}
	}
}

// jsonValue is the cell as nbformat 4.5 writes it.
func (c *Cell) jsonValue() map[string]any {
	m := map[string]any{"id": c.ID, "cell_type": c.Type, "metadata": orEmpty(c.Metadata), "source": splitLines(c.Source)}
	if c.Type != CodeCell {
		if c.Attachments != nil {
			m["attachments"] = c.Attachments
		}
		return m
	}
	m["execution_count"] = c.ExecutionCount
	outs := make([]any, len(c.Outputs))
	for i, o := range c.Outputs {
		outs[i] = o.jsonValue()
	}
	m["outputs"] = outs
	return m
}

// jsonValue is the output as nbformat 4.5 writes it; DisplayID is left out.
func (o *Output) jsonValue() map[string]any {
	m := map[string]any{"output_type": o.Type}
	switch o.Type {
	case StreamOutput:
		m["name"], m["text"] = o.Name, splitLines(o.Text)
	case DisplayData, ExecuteResult:
		data := make(map[string]any, len(o.Data))
		for mime, v := range o.Data {
			if s, ok := v.(string); ok && !isJSONMIME(mime) {
				data[mime] = splitLines(s)
			} else {
				data[mime] = v
			}
		}
		m["data"], m["metadata"] = data, orEmpty(o.Metadata)
		if o.Type == ExecuteResult {
			m["execution_count"] = o.ExecutionCount
		}
	case ErrorOutput:
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["ename"], m["evalue"], m["traceback"] = o.EName, o.EValue, tb
	}
	return m
}

// splitLines splits s after each newline, as nbformat writes multiline
// strings; "" gives an empty list.
func splitLines(s string) []string {
	out := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// orEmpty returns m, or an empty map for nil (nbformat wants {} not null).
func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// WriteAtomic writes data to path through a temporary file in the same
// folder, synced and renamed over path: a reader sees the old file or the
// new one, never half of one, and a failed write leaves the old file as it
// was and no temporary file behind. An existing file's permissions are kept;
// a new file gets 0644.
func WriteAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomic is WriteAtomic with the content written by fill.
func writeAtomic(path string, fill func(io.Writer) error) error {
	perm, err := atomicfile.Perm(path, 0o644)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, perm, fill)
}
