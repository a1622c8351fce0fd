// Package schema holds the JSON Schemas of benchbook's machine-readable
// outputs (application/vnd.benchbook.result+json and
// application/vnd.benchbook.build+json) and validates documents against them.
//
// result.ext.schema.json is written by hand where a Go type cannot say
// enough (a range, an enum, a pattern) and completed by `go generate
// ./schema` (genext), which adds every JSON field of internal/result's
// types the file lacks, with its doc comment as description.
package schema

//go:generate go run ./genext

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed result.schema.json
var resultSchema []byte

//go:embed build.schema.json
var buildSchema []byte

// resultExtSchema is the contract's result schema with the definitions of
// the fields this implementation adds (sweep, latency, the clock per
// sample): a result is checked against both. result.schema.json stays a
// copy of the shared contract (TestSchemasMatchTheContract).
//
//go:embed result.ext.schema.json
var resultExtSchema []byte

var compiled = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for name, src := range map[string][]byte{"result.schema.json": resultSchema, "result.ext.schema.json": resultExtSchema, "build.schema.json": buildSchema} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		if err := c.AddResource(name, doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
	}
	for _, name := range []string{"result.schema.json", "result.ext.schema.json", "build.schema.json"} {
		s, err := c.Compile(name)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		out[name] = s
	}
	return out, nil
})

func validate(name string, v any) error {
	schemas, err := compiled()
	if err != nil {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return schemas[name].Validate(doc)
}

// ValidateResult checks a result (any value that encodes to JSON) against
// result.schema.json, the shared contract, and result.ext.schema.json, the
// fields this implementation adds.
// The error is a *ResultError that names the schema.
func ValidateResult(v any) error {
	for _, name := range []string{"result.schema.json", "result.ext.schema.json"} {
		if err := validate(name, v); err != nil {
			return &ResultError{Schema: name, Err: err}
		}
	}
	return nil
}

// ResultError is a result that does not match Schema.
type ResultError struct {
	Schema string // result.schema.json or result.ext.schema.json
	Err    error  // the validator's error
}

func (e *ResultError) Error() string { return "does not match " + e.Schema + ": " + e.Err.Error() }

func (e *ResultError) Unwrap() error { return e.Err }

// ValidateBuild checks a build entry against build.schema.json.
func ValidateBuild(v any) error { return validate("build.schema.json", v) }

// Deviation is one place where a result departs from a schema: the
// schema, the location of the value in the result (JSON Pointer tokens),
// the keyword that fails there ("Type", "Required", "ExclusiveMinimum",
// ...) and the validator's message.
type Deviation struct {
	Schema   string
	Location []string
	Keyword  string
	Message  string
}

// ResultDeviations lists every place where v departs from
// result.schema.json and result.ext.schema.json (the leaves of the
// validators' errors); none for a valid result.
func ResultDeviations(v any) ([]Deviation, error) {
	var out []Deviation
	for _, name := range []string{"result.schema.json", "result.ext.schema.json"} {
		err := validate(name, v)
		var ve *jsonschema.ValidationError
		switch {
		case err == nil:
			continue
		case !errors.As(err, &ve):
			return nil, err
		}
		var walk func(e *jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				out = append(out, Deviation{Schema: name, Location: e.InstanceLocation,
					Keyword: strings.TrimPrefix(fmt.Sprintf("%T", e.ErrorKind), "*kind."), Message: e.Error()})
				return
			}
			for _, c := range e.Causes {
				walk(c)
			}
		}
		walk(ve)
	}
	return out, nil
}
