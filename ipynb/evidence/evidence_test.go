package evidence

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// honest is a result whose every figure is what its samples give.
func honest(seed uint64) *protocol.Result {
	r := benchtest.Seed000(seed)
	r.AA = protocol.AAControl(r.AA.Variant, r.Variant(r.AA.Variant).Series.Interleaved.SamplesNS, r.AA.SamplesNS, r.Protocol, r.RoundBlock)
	r.Comparisons = protocol.Comparisons(r.Variants, r.Protocol, r.RoundBlock)
	return r
}

// verifyOut runs Verify and returns ok and what it printed.
func verifyOut(t *testing.T, nb *ipynb.Notebook) (bool, string) {
	t.Helper()
	var out bytes.Buffer
	ok, err := Verify(nb, &out)
	if err != nil {
		t.Fatal(err)
	}
	return ok, out.String()
}

// TestVerifyRendersWhatReadersSee: a number changed only where readers see
// it (the text/plain or text/html table, a ratio, the commentary) is a
// mismatch that names the cell, the output and the line.
func TestVerifyRendersWhatReadersSee(t *testing.T) {
	r := honest(3)
	median := protocol.FormatNS(r.Variant("sink").Series.Interleaved.Summary.Median)
	ratio := protocol.FormatRatio(r.Comparisons[0].Ratio)
	for _, tc := range []struct {
		name, mime string
		output     int
		old, new   string
		says       string
	}{
		{"a median in the text table", display.MIMEText, 1, median, "9.9 ms", "cell 1 output 1 text/plain line "},
		{"a median in the HTML table", display.MIMEHTML, 1, ">" + median + "<", ">9.9 ms<", "cell 1 output 1 text/html line "},
		{"a ratio in the HTML table", display.MIMEHTML, 1, ">" + ratio + "<", ">9.99x<", "cell 1 output 1 text/html line "},
		{"a word of the commentary", display.MIMEMarkdown, 2, "**Dead code.**", "**Live code.**", "cell 1 output 2 text/markdown (commentary) line "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := resultNotebook(t, r)
			if ok, out := verifyOut(t, nb); !ok {
				t.Fatalf("the honest notebook fails:\n%s", out)
			}
			data := nb.Cells[1].Outputs[tc.output].Data
			s := data[tc.mime].(string)
			if !strings.Contains(s, tc.old) {
				t.Fatalf("%s has no %q:\n%s", tc.mime, tc.old, s)
			}
			data[tc.mime] = strings.Replace(s, tc.old, tc.new, 1)
			ok, out := verifyOut(t, roundTrip(t, nb))
			if ok || !strings.Contains(out, tc.says) || !strings.Contains(out, tc.new) {
				t.Errorf("Verify: ok %v, want a mismatch saying %q and quoting %q:\n%s", ok, tc.says, tc.new, out)
			}
		})
	}
}

// TestVerifyRendersTheBeforeAfter: a verdict changed in the before/after
// table of a result with a baseline is a mismatch.
func TestVerifyRendersTheBeforeAfter(t *testing.T) {
	r := honest(12)
	withBaseline(r)
	nb := resultNotebook(t, r)
	if ok, out := verifyOut(t, nb); !ok {
		t.Fatalf("the honest notebook fails:\n%s", out)
	}
	data := nb.Cells[1].Outputs[3].Data
	h := data[display.MIMEHTML].(string)
	if !strings.HasPrefix(h, baselineClass) || !strings.Contains(h, ">slower<") {
		t.Fatalf("output 3 is not the before/after table:\n%s", h)
	}
	data[display.MIMEHTML] = strings.Replace(h, ">slower<", ">faster<", 1)
	ok, out := verifyOut(t, nb)
	if ok || !strings.Contains(out, "cell 1 output 3 text/html (before/after) line ") {
		t.Errorf("a changed verdict: ok %v\n%s", ok, out)
	}
	nb.Cells[1].Outputs = nb.Cells[1].Outputs[:3]
	if ok, out := verifyOut(t, nb); ok || !strings.Contains(out, "no before/after table follows") {
		t.Errorf("a missing before/after table: ok %v\n%s", ok, out)
	}
}

// TestVerifyChecksumCannotOverflow: want × passes overflows to +Inf for
// want 1e308 over 2 passes; the per-pass test still judges it.
func TestVerifyChecksumCannotOverflow(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sum   protocol.Checksum
		wrong bool
	}{
		{"got 1 against 1e308 per pass, claimed ok", protocol.Checksum{Got: 1, Want: 1e308, Passes: 2, OK: true}, true},
		{"got 2e307 over 2 passes of 1e307, ok", protocol.Checksum{Got: 2e307, Want: 1e307, Passes: 2, OK: true}, false},
		{"got 1.5e308 over 2 passes of 1e308, not ok", protocol.Checksum{Got: 1.5e308, Want: 1e308, Passes: 2, OK: false}, false},
		{"the runner's tolerance near zero", protocol.Checksum{Got: 5e-10, Want: 0, Passes: 10, OK: true}, false},
		{"no passes, got 0", protocol.Checksum{Got: 0, Want: 7, Passes: 0, OK: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := honest(4)
			c := tc.sum
			r.Variants[2].Checksum = &c
			ok, out := verifyOut(t, resultNotebook(t, r))
			if ok == tc.wrong || tc.wrong && !strings.Contains(out, "checksum: ok is true") {
				t.Errorf("Verify ok %v, want %v:\n%s", ok, !tc.wrong, out)
			}
		})
	}
}

// TestVerifyNamesIntegersJavaScriptRounds: an integer at or above 2^53
// anywhere in a result is named by its path.
func TestVerifyNamesIntegersJavaScriptRounds(t *testing.T) {
	nb := resultNotebook(t, honest(5))
	v := nb.Cells[1].Outputs[1].Data[display.MIMEResult].(map[string]any)
	v["protocol"].(map[string]any)["bootstrap_seed"] = json.Number("12345678901234567890")
	v["conditions"].(map[string]any)["clock"].(map[string]any)["gap_count"] = json.Number("9007199254740992")
	ok, out := verifyOut(t, nb)
	for _, s := range []string{"protocol.bootstrap_seed is 12345678901234567890, at or above 2^53", "conditions.clock.gap_count is 9007199254740992"} {
		if ok || !strings.Contains(out, s) {
			t.Errorf("Verify does not say %q:\n%s", s, out)
		}
	}
	v["protocol"].(map[string]any)["bootstrap_seed"] = json.Number("9007199254740991")
	v["conditions"].(map[string]any)["clock"].(map[string]any)["gap_count"] = json.Number("0")
	if strings.Contains(strings.Join(bigIntegers(v, ""), ";"), "2^53") {
		t.Error("2^53-1 is named, but it survives a JavaScript save")
	}
}

// emptyVariants is a notebook whose result has variants: [].
func emptyVariants(t *testing.T) *ipynb.Notebook {
	nb := resultNotebook(t, honest(6))
	nb.Cells[1].Outputs[1].Data[display.MIMEResult].(map[string]any)["variants"] = []any{}
	return nb
}

// TestVerifyAndCompareRefuseMalformedResults: variants: [] is refused with
// the cell and the field, by verify and by compare.
func TestVerifyAndCompareRefuseMalformedResults(t *testing.T) {
	ok, out := verifyOut(t, emptyVariants(t))
	if ok || !strings.Contains(out, "cell 1 output 1: result: MISMATCH: does not match result.schema.json: at '/variants': minItems") {
		t.Errorf("verify of variants: []: ok %v\n%s", ok, out)
	}
	good := resultNotebook(t, honest(7))
	for _, pair := range [][2]*ipynb.Notebook{{emptyVariants(t), good}, {good, emptyVariants(t)}} {
		var buf bytes.Buffer
		err := Compare(Input{"a.ipynb", pair[0]}, Input{"b.ipynb", pair[1]}, &buf)
		if !errors.Is(err, ErrMalformedResult) || !strings.Contains(err.Error(), "cell 1 output 1") || !strings.Contains(err.Error(), "/variants") {
			t.Errorf("compare: err %v, printed %q", err, buf.String())
		}
	}
}

// TestRunStoresPathsRelativeToTheNotebook: raw_file, the tables that show
// it, a progress line, a stream and an error hold paths relative to the
// notebook's folder; paths elsewhere stay as they are.
func TestRunStoresPathsRelativeToTheNotebook(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "results", "seed-20261201")
	r := honest(8)
	r.RawFile = raw
	nb := ipynb.New(ipynb.NewCode("%bench seed"), ipynb.NewCode("fail"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{
		"%bench seed": func(pub display.Publisher) (map[string]any, error) {
			id := display.NewID()
			pub.Display(display.Bundle{Data: ipynbtest.Plain("starting"), ID: id}, false)
			pub.Display(display.Bundle{Data: ipynbtest.Plain("done; raw records and result.json in " + raw), ID: id}, true)
			pub.Stream("stdout", "wrote "+dir+" and /usr/share/x\n")
			pub.Display(display.Bundle{Data: report.Result(r), ID: display.NewID()}, false)
			pub.Display(display.Bundle{Data: report.CommentaryBundle(r), ID: display.NewID()}, false)
			return nil, nil
		},
		"fail": func(display.Publisher) (map[string]any, error) {
			return nil, &ipynbtest.ExecErr{Name: "Interrupted", Value: "partial result on disk in " + raw, Traceback: []string{"in " + raw}}
		},
	}}
	if err := ipynb.Execute(context.Background(), nb, eng, ipynb.RunOptions{Dir: dir, AllowErrors: true, Version: "v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	data, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(dir)) {
		t.Errorf("the notebook still holds %s:\n%s", dir, data)
	}
	for _, s := range []string{`"raw_file": "results/seed-20261201"`, "raw records and result.json in results/seed-20261201",
		"raw records: results/seed-20261201", `"wrote . and /usr/share/x\n"`, "partial result on disk in results/seed-20261201", `"version": "v1.2.3"`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("the notebook does not hold %q", s)
		}
	}
	back := roundTrip(t, nb)
	if ok, out := verifyOut(t, back); !ok {
		t.Errorf("verify after the rewrite:\n%s", out)
	}
	if p := ipynb.Provenance(back); !strings.HasPrefix(p, "executed by benchbook v1.2.3 at ") {
		t.Errorf("Provenance = %q", p)
	}
}

// TestVerifyFindings: a finding's sentence edited in the result's JSON is
// a mismatch that names it; so is a finding dropped.
func TestVerifyFindings(t *testing.T) {
	r := honest(3)
	nb := resultNotebook(t, r)
	res := nb.Cells[1].Outputs[1].Data[display.MIMEResult].(map[string]any)
	fs := res["findings"].([]any)
	f0 := fs[0].(map[string]any)
	text := f0["text"].(string)
	f0["text"] = strings.Replace(text, "dead", "live", 1)
	if ok, out := verifyOut(t, roundTrip(t, nb)); ok || !strings.Contains(out, "MISMATCH: findings[0] is dead_code") {
		t.Errorf("an edited finding: ok %v\n%s", ok, out)
	}
	f0["text"] = text
	res["findings"] = fs[1:]
	if ok, out := verifyOut(t, roundTrip(t, nb)); ok || !strings.Contains(out, "MISMATCH: findings[0] is") {
		t.Errorf("a dropped finding: ok %v\n%s", ok, out)
	}
}

// TestVerifyTextVersion (issue 23 item 5): verify holds to the letter the
// text of the one version it renders; a result that claims another
// text_version (an older one, a later one, one that never existed) or
// none (the key deleted) fails, with its commentary, a table ratio and a
// finding rewritten and also with its text untouched, and the edited
// numbers are named all the same. The same edits under this version are
// mismatches naming each.
func TestVerifyTextVersion(t *testing.T) {
	edits := []struct {
		name string
		edit func(nb *ipynb.Notebook)
		says string
	}{
		{"nothing edited", func(*ipynb.Notebook) {}, ""},
		{"the commentary", func(nb *ipynb.Notebook) {
			data := nb.Cells[1].Outputs[2].Data
			data[display.MIMEMarkdown] = strings.Replace(data[display.MIMEMarkdown].(string), "**Dead code.**", "**Dead code, reworded.**", 1)
		}, "reworded"},
		{"a finding", func(nb *ipynb.Notebook) {
			f0 := resultOf(nb)["findings"].([]any)[0].(map[string]any)
			f0["text"] = strings.Replace(f0["text"].(string), "dead", "live", 1)
		}, "findings[0]"},
		{"a ratio", func(nb *ipynb.Notebook) {
			resultOf(nb)["comparisons"].([]any)[0].(map[string]any)["ratio"] = 9.5
		}, "ratio is 9.5"},
	}
	for _, version := range []any{1, protocol.TextVersion - 1, protocol.TextVersion + 1, 999, "deleted"} {
		for _, e := range edits {
			r := honest(3)
			nb := resultNotebook(t, r)
			res := resultOf(nb)
			if version == "deleted" {
				delete(res, "text_version")
			} else {
				res["text_version"] = version
			}
			e.edit(nb)
			ok, out := verifyOut(t, roundTrip(t, nb))
			want := fmt.Sprintf("text_version is %v, and this benchbook knows and holds to the letter only text version %d", version, protocol.TextVersion)
			if version == "deleted" {
				want = "text_version is missing"
			}
			if ok || !strings.Contains(out, want) || !strings.Contains(out, e.says) {
				t.Errorf("text_version %v, %s edited: ok %v, want a failure saying %q and %q:\n%s", version, e.name, ok, want, e.says, out)
			}
		}
	}
	for _, e := range edits[1:] {
		nb := resultNotebook(t, honest(3))
		e.edit(nb)
		if ok, out := verifyOut(t, roundTrip(t, nb)); ok || !strings.Contains(out, "MISMATCH") || !strings.Contains(out, e.says) ||
			strings.Contains(out, "text_version is") {
			t.Errorf("this text version, %s edited: ok %v\n%s", e.name, ok, out)
		}
	}
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, honest(3)))); !ok {
		t.Errorf("an honest notebook:\n%s", out)
	}
}

// resultOf is the result entry of the notebook resultNotebook makes.
func resultOf(nb *ipynb.Notebook) map[string]any {
	return nb.Cells[1].Outputs[1].Data[display.MIMEResult].(map[string]any)
}

// TestVerifyByRole: in a notebook whose outputs carry their role, verify
// finds each by its role wherever it stands, holds the headline to what
// the result renders, and names a headline that is not the first output
// or a role that is missing.
func TestVerifyByRole(t *testing.T) {
	r := honest(5)
	nb := roleNotebook(t, r)
	if ok, out := verifyOut(t, roundTrip(t, nb)); !ok {
		t.Fatalf("the honest notebook fails:\n%s", out)
	}
	cell := nb.Cells[1]
	find := func(role string) int {
		for i, o := range cell.Outputs {
			if report.RoleOf(o.Metadata) == role {
				return i
			}
		}
		t.Fatalf("no %s", role)
		return 0
	}
	h := find(report.RoleHeadline)
	text := cell.Outputs[h].Data[display.MIMEText].(string)
	if !strings.HasPrefix(text, "discarded: DEAD") {
		t.Fatalf("headline %q", text)
	}
	for _, tc := range []struct {
		name   string
		change func(nb *ipynb.Notebook)
		says   string
	}{
		{"a headline reworded", func(nb *ipynb.Notebook) {
			d := nb.Cells[1].Outputs[h].Data
			d[display.MIMEText] = strings.Replace(d[display.MIMEText].(string), "DEAD", "live", 1)
		}, "(headline) line 1 is"},
		{"the headline moved after the tables", func(nb *ipynb.Notebook) {
			o := nb.Cells[1].Outputs
			o[0], o[1] = o[1], o[0]
		}, "the headline is output 1, not the first"},
		{"the commentary's role removed", func(nb *ipynb.Notebook) {
			nb.Cells[1].Outputs[find(report.RoleCommentary)].Metadata = map[string]any{}
		}, "no output has the role commentary"},
		{"a second headline", func(nb *ipynb.Notebook) {
			o := nb.Cells[1].Outputs
			nb.Cells[1].Outputs = append(o, o[0])
		}, "2 outputs have the role headline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := roundTrip(t, roleNotebook(t, honest(5)))
			tc.change(nb)
			if ok, out := verifyOut(t, roundTrip(t, nb)); ok || !strings.Contains(out, tc.says) {
				t.Errorf("ok %v, want a mismatch saying %q:\n%s", ok, tc.says, out)
			}
		})
	}
}
