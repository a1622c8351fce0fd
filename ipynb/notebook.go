// Package ipynb is benchbook's notebook file: the nbformat 4 model read with
// errors that say where a file is wrong and written as nbformat 4.5,
// atomically; a runner that executes every code cell through an Engine and
// keeps its outputs as Jupyter clients do; and a self-contained HTML export.
// The checks of executed notebooks as evidence (verify, compare) are
// ipynb/evidence's.
//
// Outputs are stored portable: paths under the notebook's folder relative
// to it, integers that JavaScript keeps exact (verify names any at or above
// 2^53), and the display size of a figure's PNG in its metadata (Portable
// does the same for the kernel's outputs).
//
// Cells and outputs are numbered from 0 in every message (as nbformat's
// validator numbers them): "cell 7 output 1" is the second output of the
// eighth cell.
package ipynb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// Errors of reading a notebook, for errors.Is; the messages say where.
var (
	// ErrNotJSON: the file is not JSON.
	ErrNotJSON = errors.New("not JSON")
	// ErrNotNotebook: JSON, but not a Jupyter notebook (no nbformat key,
	// not an object).
	ErrNotNotebook = errors.New("not a Jupyter notebook")
	// ErrVersion: a notebook of another major nbformat than 4.
	ErrVersion = errors.New("unsupported nbformat")
	// ErrMalformed: a cell, output or metadata entry is not as nbformat 4
	// describes it.
	ErrMalformed = errors.New("malformed notebook")
)

// Cell types.
const (
	CodeCell     = "code"
	MarkdownCell = "markdown"
	RawCell      = "raw"
)

// Output types.
const (
	StreamOutput  = "stream"
	DisplayData   = "display_data"
	ExecuteResult = "execute_result"
	ErrorOutput   = "error"
)

// Notebook is an nbformat 4 notebook. Metadata is kept as read, with every
// key this package does not know.
type Notebook struct {
	NBFormat      int
	NBFormatMinor int
	Metadata      map[string]any
	Cells         []*Cell
}

// Cell is one cell. ExecutionCount and Outputs are for code cells only,
// Attachments for markdown and raw cells only.
type Cell struct {
	ID             string
	Type           string // CodeCell, MarkdownCell or RawCell
	Source         string
	Metadata       map[string]any
	Attachments    map[string]any
	ExecutionCount *int
	Outputs        []*Output
}

// Output is one output of a code cell. Which fields count depends on Type:
// stream has Name and Text; display_data has Data and Metadata;
// execute_result also ExecutionCount; error has EName, EValue and Traceback.
// Data values are JSON-native: strings, json.Number, bool, nil, []any and
// map[string]any.
type Output struct {
	Type           string
	Name, Text     string
	Data           map[string]any
	Metadata       map[string]any
	ExecutionCount *int
	EName, EValue  string
	Traceback      []string
	// DisplayID is the transient display id of a display_data output while
	// the notebook runs: updates find their outputs by it. It is never
	// written to the file.
	DisplayID string
}

// NewCode returns a code cell with source src and no outputs.
func NewCode(src string) *Cell {
	return &Cell{Type: CodeCell, Source: src, Metadata: map[string]any{}}
}

// NewMarkdown returns a markdown cell with source src.
func NewMarkdown(src string) *Cell {
	return &Cell{Type: MarkdownCell, Source: src, Metadata: map[string]any{}}
}

// New returns an empty nbformat 4.5 notebook holding cells.
func New(cells ...*Cell) *Notebook {
	return &Notebook{NBFormat: 4, NBFormatMinor: 5, Metadata: map[string]any{}, Cells: cells}
}

// ReadFile reads the notebook at path; errors begin with the path.
func ReadFile(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}

// Parse decodes an nbformat 4 notebook. Errors wrap ErrNotJSON (with the line
// and column), ErrNotNotebook, ErrVersion (with the version found) or
// ErrMalformed (with the cell index and what is wrong).
func Parse(data []byte) (*Notebook, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, jsonError(data, err)
	}
	if top == nil {
		return nil, fmt.Errorf("%w: the top level is null, want an object", ErrNotNotebook)
	}
	major, err := version(top)
	if err != nil {
		return nil, err
	}
	nb := &Notebook{NBFormat: major}
	if raw, ok := top["nbformat_minor"]; ok {
		if err := decode(raw, &nb.NBFormatMinor); err != nil {
			return nil, fmt.Errorf("%w: nbformat_minor is %s, want an integer", ErrMalformed, kind(raw))
		}
	}
	if nb.Metadata, err = object(top["metadata"]); err != nil {
		return nil, fmt.Errorf("%w: notebook metadata %v", ErrMalformed, err)
	}
	var cells []json.RawMessage
	if raw, ok := top["cells"]; ok {
		if err := json.Unmarshal(raw, &cells); err != nil {
			return nil, fmt.Errorf("%w: cells is %s, want a list", ErrMalformed, kind(raw))
		}
	}
	for i, raw := range cells {
		c, err := parseCell(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: cell %d: %v", ErrMalformed, i, err)
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// jsonError says where the JSON is broken, as line and column (1-based, the
// column in characters) of the byte the decoder stopped at.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := position(data, syn.Offset-1)
		return fmt.Errorf("%w: line %d, column %d: %v", ErrNotJSON, line, col, syn)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("%w: the top level is a JSON %s, want an object", ErrNotNotebook, typ.Value)
	}
	return fmt.Errorf("%w: %v", ErrNotJSON, err)
}

// position turns a byte offset into a line and a column, both from 1.
func position(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[start:])
}

// version checks the nbformat key.
func version(top map[string]json.RawMessage) (int, error) {
	raw, ok := top["nbformat"]
	if !ok {
		return 0, fmt.Errorf("%w: there is no nbformat key", ErrNotNotebook)
	}
	var major int
	if err := decode(raw, &major); err != nil {
		return 0, fmt.Errorf("%w: nbformat is %s, want the integer 4", ErrNotNotebook, kind(raw))
	}
	if major != 4 {
		return 0, fmt.Errorf("%w: this is an nbformat %d notebook; benchbook reads nbformat 4 "+
			"(convert it with `jupyter nbconvert --to notebook --nbformat 4`)", ErrVersion, major)
	}
	return major, nil
}

// decode unmarshals raw into v, keeping numbers as json.Number in generic
// values so that 64-bit integers (bootstrap seeds) survive.
func decode(raw json.RawMessage, v any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(v)
}

// kind names the JSON type of raw, for messages.
func kind(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "missing"
	}
	switch s[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// object decodes an optional JSON object; missing gives an empty map.
func object(raw json.RawMessage) (map[string]any, error) {
	if raw == nil {
		return map[string]any{}, nil
	}
	var m map[string]any
	if err := decode(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("is %s, want an object", kind(raw))
	}
	return m, nil
}

// multiline decodes nbformat's multiline string: a string or a list of
// strings, joined.
func multiline(raw json.RawMessage, what string) (string, error) {
	if raw == nil {
		return "", fmt.Errorf("%s is missing", what)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err == nil {
		return strings.Join(parts, ""), nil
	}
	if kind(raw) == "a list" {
		return "", fmt.Errorf("%s is a list with an item that is not a string, want a string or a list of strings", what)
	}
	return "", fmt.Errorf("%s is %s, want a string or a list of strings", what, kind(raw))
}

// str decodes a required string field.
func str(fields map[string]json.RawMessage, key string) (string, error) {
	raw, ok := fields[key]
	if !ok {
		return "", fmt.Errorf("%s is missing", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s is %s, want a string", key, kind(raw))
	}
	return s, nil
}

// count decodes an execution count: null or a non-negative integer.
func count(raw json.RawMessage) (*int, error) {
	if raw == nil || kind(raw) == "null" {
		return nil, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < 0 {
		return nil, fmt.Errorf("execution_count is %s, want null or a non-negative integer", string(bytes.TrimSpace(raw)))
	}
	return &n, nil
}
