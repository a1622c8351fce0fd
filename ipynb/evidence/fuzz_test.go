package evidence

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// fuzzSeedNotebook is the bytes of a small executed notebook that Verify
// passes: a markdown cell and one %bench cell showing benchtest.Seed000, as
// resultNotebook makes it (which takes a *testing.T, not a testing.TB).
func fuzzSeedNotebook(f testing.TB) []byte {
	r := benchtest.Seed000(7)
	r.AA = protocol.AAControl(r.AA.Variant, r.Variant(r.AA.Variant).Series.Interleaved.SamplesNS, r.AA.SamplesNS, r.Protocol, r.RoundBlock)
	r.Comparisons = protocol.Comparisons(r.Variants, r.Protocol, r.RoundBlock)
	code := "%bench seed quick"
	nb := ipynb.New(ipynb.NewMarkdown("# results"), ipynb.NewCode(code))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{code: func(pub display.Publisher) (map[string]any, error) {
		pub.Stream("stdout", "prediction: none\n")
		pub.Display(display.Bundle{Data: report.Result(r), ID: display.NewID()}, false)
		pub.Display(display.Bundle{Data: report.CommentaryBundle(r), ID: display.NewID()}, false)
		return nil, nil
	}}}
	if err := ipynb.Execute(context.Background(), nb, eng, ipynb.RunOptions{}); err != nil {
		f.Fatalf("running the seed notebook: %v", err)
	}
	data := marshal(f, nb)
	if ok, err := Verify(parse(f, data), io.Discard); !ok || err != nil {
		f.Fatalf("the seed notebook does not verify: ok %v, err %v", ok, err)
	}
	return data
}

// Small notebooks, well formed or nearly.
var fuzzNotebooks = []string{
	`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`,
	`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["# t\n", "x"]}]}`,
	`{"nbformat": 4, "nbformat_minor": 4, "metadata": {"kernelspec": {"name": "benchbook"}}, "cells": [{"cell_type": "code", "metadata": {}, "execution_count": 3, "source": "%bench k", "outputs": [` +
		`{"output_type": "stream", "name": "stdout", "text": ["hi\n"]},` +
		`{"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t"]},` +
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "x", "application/vnd.benchbook.result+json": {"kernel": {"name": "k"}}}},` +
		`{"output_type": "execute_result", "execution_count": 3, "metadata": {}, "data": {"text/plain": ["1"]}}]}]}`,
	`{"nbformat": 4, "cells": [{"cell_type": "raw", "source": "", "metadata": {}, "attachments": {}}]}`,
	`{"nbformat": 3, "worksheets": []}`, `{"nbformat": "4"}`, `{"cells": [1]}`, `null`, `[]`, `{`, ``,
}

// FuzzReadNotebook feeds arbitrary bytes to Parse: it never panics, a
// refusal wraps one of its four errors, and a notebook it accepts writes
// out, reads back, and writes out the same bytes again.
//
//	go test ./ipynb/evidence -run '^$' -fuzz '^FuzzReadNotebook$' -fuzztime 60s
func FuzzReadNotebook(f *testing.F) {
	for _, s := range fuzzNotebooks {
		f.Add([]byte(s))
	}
	f.Add(fuzzSeedNotebook(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := ipynb.Parse(data)
		if err != nil {
			if !errors.Is(err, ipynb.ErrNotJSON) && !errors.Is(err, ipynb.ErrNotNotebook) && !errors.Is(err, ipynb.ErrVersion) && !errors.Is(err, ipynb.ErrMalformed) {
				t.Fatalf("refusal wraps none of Parse's errors: %v", err)
			}
			return
		}
		out, err := nb.Marshal()
		if err != nil {
			t.Fatalf("accepted notebook does not marshal: %v", err)
		}
		back, err := ipynb.Parse(out)
		if err != nil {
			t.Fatalf("written notebook does not read back: %v\n%s", err, out)
		}
		again, err := back.Marshal()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("notebook written twice differs (%v):\n%s\n%s", err, out, again)
		}
	})
}

// fuzzSeedResult is the JSON of the result fuzzSeedNotebook shows.
func fuzzSeedResult(f testing.TB) []byte {
	nb := parse(f, fuzzSeedNotebook(f))
	data, err := json.Marshal(ipynb.Results(nb)[0].Value)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// wrapResult is a notebook of one code cell whose one output holds data as
// its result.
func wrapResult(data []byte) []byte {
	return []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "c", "metadata": {}, ` +
		`"execution_count": 1, "source": "%bench seed", "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"` +
		display.MIMEResult + `": ` + string(data) + `}}]}]}`)
}

// FuzzVerify runs Verify on whatever Parse accepts, and on input that is
// not a notebook as the result of a one-output notebook (so that mutations
// of a result reach the checks): it never panics, a
// notebook without a result is an error wrapping ErrNoResults, and one with
// results is ok or not without an error (output goes to io.Discard).
// Provenance and Results never panic either. The seed is an executed
// notebook that verifies.
//
//	go test ./ipynb/evidence -run '^$' -fuzz '^FuzzVerify$' -fuzztime 60s
func FuzzVerify(f *testing.F) {
	for _, s := range fuzzNotebooks {
		f.Add([]byte(s))
	}
	f.Add(fuzzSeedNotebook(f))
	f.Add(fuzzSeedResult(f))
	f.Add([]byte(`{"kernel": {"name": "k"}, "variants": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := ipynb.Parse(data)
		if err != nil {
			if nb, err = ipynb.Parse(wrapResult(data)); err != nil {
				return
			}
		}
		_ = ipynb.Provenance(nb)
		found := ipynb.Results(nb)
		ok, err := Verify(nb, io.Discard)
		if len(found) == 0 {
			if ok || !errors.Is(err, ErrNoResults) {
				t.Fatalf("no results: ok %v, err %v", ok, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%d results: error %v", len(found), err)
		}
	})
}
