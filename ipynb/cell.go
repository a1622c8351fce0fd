package ipynb

import (
	"encoding/json"
	"fmt"
	"strings"
)

// parseCell decodes one cell. Keys that nbformat 4 does not define for the
// cell's type are dropped (the 4.5 schema forbids them); its metadata is
// kept whole.
func parseCell(raw json.RawMessage) (*Cell, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("is %s, want an object", kind(raw))
	}
	typ, err := str(fields, "cell_type")
	if err != nil {
		return nil, err
	}
	if typ != CodeCell && typ != MarkdownCell && typ != RawCell {
		return nil, fmt.Errorf("unknown cell_type %q (want code, markdown or raw)", typ)
	}
	c := &Cell{Type: typ}
	if raw, ok := fields["id"]; ok {
		if err := json.Unmarshal(raw, &c.ID); err != nil {
			return nil, fmt.Errorf("id is %s, want a string", kind(raw))
		}
	}
	if c.Source, err = multiline(fields["source"], "source"); err != nil {
		return nil, err
	}
	if c.Metadata, err = object(fields["metadata"]); err != nil {
		return nil, fmt.Errorf("metadata %v", err)
	}
	if typ != CodeCell {
		if raw, ok := fields["attachments"]; ok {
			if c.Attachments, err = object(raw); err != nil {
				return nil, fmt.Errorf("attachments %v", err)
			}
		}
		return c, nil
	}
	if c.ExecutionCount, err = count(fields["execution_count"]); err != nil {
		return nil, err
	}
	return c, parseOutputs(c, fields["outputs"])
}

// parseOutputs decodes the outputs of a code cell.
func parseOutputs(c *Cell, raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	var outs []json.RawMessage
	if err := json.Unmarshal(raw, &outs); err != nil {
		return fmt.Errorf("outputs is %s, want a list", kind(raw))
	}
	for j, r := range outs {
		o, err := parseOutput(r)
		if err != nil {
			return fmt.Errorf("output %d: %v", j, err)
		}
		c.Outputs = append(c.Outputs, o)
	}
	return nil
}

// parseOutput decodes one output.
func parseOutput(raw json.RawMessage) (*Output, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("is %s, want an object", kind(raw))
	}
	typ, err := str(fields, "output_type")
	if err != nil {
		return nil, err
	}
	o := &Output{Type: typ}
	switch typ {
	case StreamOutput:
		if o.Name, err = str(fields, "name"); err != nil {
			return nil, err
		}
		o.Text, err = multiline(fields["text"], "text")
		return o, err
	case DisplayData, ExecuteResult:
		if o.Data, err = mimeBundle(fields["data"]); err != nil {
			return nil, err
		}
		if o.Metadata, err = object(fields["metadata"]); err != nil {
			return nil, fmt.Errorf("metadata %v", err)
		}
		if typ == ExecuteResult {
			o.ExecutionCount, err = count(fields["execution_count"])
		}
		return o, err
	case ErrorOutput:
		return parseError(o, fields)
	}
	return nil, fmt.Errorf("unknown output_type %q (want stream, display_data, execute_result or error)", typ)
}

// parseError decodes the fields of an error output.
func parseError(o *Output, fields map[string]json.RawMessage) (*Output, error) {
	var err error
	if o.EName, err = str(fields, "ename"); err != nil {
		return nil, err
	}
	if o.EValue, err = str(fields, "evalue"); err != nil {
		return nil, err
	}
	raw, ok := fields["traceback"]
	if !ok {
		return nil, fmt.Errorf("traceback is missing")
	}
	if err := json.Unmarshal(raw, &o.Traceback); err != nil {
		return nil, fmt.Errorf("traceback is %s, want a list of strings", kind(raw))
	}
	return o, nil
}

// mimeBundle decodes output data: JSON entries (application/json and
// +json types) as generic values, every other entry as a multiline string.
func mimeBundle(raw json.RawMessage) (map[string]any, error) {
	if raw == nil {
		return map[string]any{}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("data is %s, want an object", kind(raw))
	}
	data := make(map[string]any, len(fields))
	for mime, v := range fields {
		if isJSONMIME(mime) {
			var g any
			if err := decode(v, &g); err != nil {
				return nil, fmt.Errorf("data %s: %v", mime, err)
			}
			data[mime] = g
			continue
		}
		s, err := multiline(v, "data "+mime)
		if err != nil {
			return nil, err
		}
		data[mime] = s
	}
	return data, nil
}

// isJSONMIME says whether a MIME type holds JSON values rather than text,
// as nbformat decides when it splits and joins lines.
func isJSONMIME(mime string) bool {
	return mime == "application/json" || strings.HasSuffix(mime, "+json")
}
