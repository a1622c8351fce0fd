package evidence

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/schema"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// ErrNoResults is returned when a notebook holds no benchbook result.
var ErrNoResults = errors.New("no benchbook result in the notebook")

// relTol is how far (relatively) a stored figure may be from the one
// recomputed from its samples: the same code gives the same bits, so this
// only forgives a float printed and read back by another tool.
const relTol = 1e-9

// maxProblems caps the mismatches named on one line.
const maxProblems = 6

// Verify checks every result embedded in nb against its own samples: the
// JSON Schema, every summary of every series (stats.Summarize), every
// comparison (ratio, interval, p-value, verdict; paired by round with the
// stored bootstrap seed and resamples, as the runner computes them), the A/A
// control (from aa.samples_ns), each checksum verdict and a judged
// prediction; that no integer is at or above 2^53 (a JavaScript save would
// round it); and that the tables and commentary the notebook shows are what
// the result renders (checkRendered). A result is first checked against the
// schema, and one that does not match is reported and not checked further.
// Each native cell's build is held to its source and its assembly
// (checkBuild), each result's assembly to that build (checkAssembly), and
// each plot is drawn again and compared byte for byte (checkPlots). The
// outputs of glue cells are listed first as unchecked. It writes one line
// per build and one per result to w, ending in "ok" or
// "MISMATCH: " and what differs, and returns ok false on any mismatch. A
// notebook without results is an error wrapping ErrNoResults.
func Verify(nb *ipynb.Notebook, w io.Writer) (ok bool, err error) {
	found := ipynb.Results(nb)
	if len(found) == 0 {
		return false, fmt.Errorf("%w: no output holds %s, so there is nothing to verify (run the notebook; a %%bench cell adds one)",
			ErrNoResults, display.MIMEResult)
	}
	ok = true
	report := func(where, desc string, problems []string) error {
		line := where + ": " + desc + ": ok"
		if len(problems) > 0 {
			ok = false
			if len(problems) > maxProblems {
				problems = append(problems[:maxProblems], fmt.Sprintf("and %d more", len(problems)-maxProblems))
			}
			line = where + ": " + desc + ": MISMATCH: " + strings.Join(problems, "; ")
		}
		_, err := fmt.Fprintln(w, line)
		return err
	}
	// What verify cannot hold to a result comes first, said plainly.
	if g := glueOutputs(nb); g != "" {
		if _, err := fmt.Fprintln(w, g); err != nil {
			return false, err
		}
	}
	bs := builds(nb)
	for _, b := range bs {
		if err := report(b.Where(), "build", checkBuild(b)); err != nil {
			return false, err
		}
	}
	plots := cellPlots(nb, found)
	for _, f := range found {
		desc, problems := check(nb, bs, f)
		if pc, first := plots[f.Cell]; first {
			desc, problems = joinNote(desc, pc.note()), append(problems, pc.problems...)
			delete(plots, f.Cell)
		}
		if err := report(f.Where(), desc, problems); err != nil {
			return false, err
		}
	}
	return ok, nil
}

// joinNote is desc with note added after a semicolon, when there is one.
func joinNote(desc, note string) string {
	if note == "" {
		return desc
	}
	return desc + "; " + note
}

// cellPlots checks the plots of every %bench cell that holds a result
// (checkPlots), by cell.
func cellPlots(nb *ipynb.Notebook, found []ipynb.Found) map[int]plotCheck {
	byCell := map[int][]*protocol.Result{}
	for _, f := range found {
		if !isBenchCell(nb.Cells[f.Cell]) {
			continue
		}
		if _, err := checkSchema(f.Value); err != nil {
			continue
		}
		if r, err := ipynb.DecodeResult(f.Value); err == nil {
			byCell[f.Cell] = append(byCell[f.Cell], r)
		}
	}
	out := map[int]plotCheck{}
	for c, rs := range byCell {
		out[c] = checkPlots(nb, c, rs)
	}
	return out
}

// quickNote says that a result is a quick run, a smoke test and not a
// measurement, and who asked for it: the cell's quick key, or, when the
// cell has none, the session (BENCHBOOK_QUICK=1, which the notebook's
// metadata.benchbook.quick records).
func quickNote(nb *ipynb.Notebook, f ipynb.Found, r *protocol.Result) string {
	if !r.Protocol.Quick {
		return ""
	}
	who := "the cell has no quick key: the session was quick"
	magic, _, _ := strings.Cut(nb.Cells[f.Cell].Source, "\n")
	if slices.Contains(strings.Fields(magic), "quick") {
		who = "the cell's quick key"
	}
	if m, _ := nb.Metadata["benchbook"].(map[string]any); m["quick"] == true {
		who += "; executed with BENCHBOOK_QUICK=1"
	}
	return fmt.Sprintf("QUICK (reps=%d runs=%d, %s): a smoke test, not a measurement", r.Protocol.Reps, r.Protocol.Runs, who)
}

// glueOutputs names the outputs of glue cells, which verify cannot hold to
// any result: "glue: 7 outputs of 6 cells (8, 9, 12, 13, 17, 22) unchecked
// (what glue code printed is not derived from a stored result)", or "".
func glueOutputs(nb *ipynb.Notebook) string {
	var cells []string
	n := 0
	for i, c := range nb.Cells {
		if c.Type != ipynb.CodeCell || strings.HasPrefix(strings.TrimSpace(c.Source), "%") || len(c.Outputs) == 0 {
			continue
		}
		cells = append(cells, strconv.Itoa(i))
		n += len(c.Outputs)
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("glue: %s of %s (%s) unchecked: what glue code printed is not derived from a stored result",
		ipynb.Plural(n, "output"), ipynb.Plural(len(cells), "cell"), strings.Join(cells, ", "))
}

// check verifies one result and describes it. Integers that a JavaScript
// save would round are named first; a result that does not match the schema
// is not checked further: the schema error names the field. The text shown
// with it (tables, commentary, findings) is held to the letter; a result
// whose text_version is not this benchbook's TextVersion, or that has
// none, fails (unknownWording). The assembly is held to the kernel's build
// in the notebook, bs (checkAssembly).
func check(nb *ipynb.Notebook, bs []build, f ipynb.Found) (desc string, problems []string) {
	desc = "result"
	problems = bigIntegers(f.Value, "")
	failed, err := checkSchema(f.Value) // verify_failed.go
	if err != nil {
		return desc, append(problems, schemaError(err))
	}
	r, err := ipynb.DecodeResult(f.Value)
	if err != nil {
		return desc, append(problems, "cannot be read as a result: "+err.Error())
	}
	desc = joinNote(describe(r), quickNote(nb, f, r))
	if err := protocol.CheckMethod(r.Protocol); err != nil {
		return desc, append(problems, err.Error())
	}
	if failed != "" {
		desc += "; " + failedNote(failed)
	}
	note, asmProblems := checkAssembly(bs, f, r) // verify_native.go
	desc, problems = joinNote(desc, note), append(problems, asmProblems...)
	// The tables and commentary are rendered from the result as stored,
	// before checkSummaries puts the recomputed summaries in place.
	shown, err := ipynb.DecodeResult(f.Value)
	if err != nil {
		return desc, append(problems, "cannot be read as a result: "+err.Error())
	}
	problems = append(problems, checkSummaries(r)...)
	problems = append(problems, checkComparisons(r)...)
	problems = append(problems, checkAA(r)...)
	problems = append(problems, checkBaseline(r)...)
	problems = append(problems, checkOrder(r)...)
	problems = append(problems, checkChecksums(r)...)
	problems = append(problems, checkPrediction(r)...)
	problems = append(problems, checkSweep(nb, r)...)
	problems = append(problems, checkLatency(r)...) // verify_latency.go
	problems = append(problems, checkFreq(r)...)
	problems = append(problems, checkCounts(r)...) // verify_counts.go
	// verify_fingerprint.go
	problems = append(problems, checkFingerprint(r)...)
	text := append(checkFindings(shown), checkRendered(nb, f, shown)...)
	if shown.TextVersion != protocol.TextVersion {
		return desc, append(problems, unknownWording(shown.TextVersion, text))
	}
	return desc, append(problems, text...)
}

// checkFindings recomputes the findings from the result as stored: the
// same kinds, variants and sentences in the same order.
func checkFindings(r *protocol.Result) []string {
	want := protocol.Findings(r)
	for i := range max(len(r.Findings), len(want)) {
		var got, w protocol.Finding
		if i < len(r.Findings) {
			got = r.Findings[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if got.Kind != w.Kind || got.Text != w.Text || variantOf(got) != variantOf(w) {
			return []string{fmt.Sprintf("findings[%d] is %s, the result's numbers give %s", i, findingText(got, w), findingText(w, got))}
		}
	}
	return nil
}

func variantOf(f protocol.Finding) string {
	if f.Variant == nil {
		return ""
	}
	return *f.Variant
}

// findingText is a finding in a few words, its text quoted around where it
// differs from other's: `dead_code (noop) "…noop is dead: its…"`, or
// "(nothing)".
func findingText(f, other protocol.Finding) string {
	if f.Kind == "" && f.Text == "" {
		return "(nothing)"
	}
	v := ""
	if f.Variant != nil {
		v = " (" + *f.Variant + ")"
	}
	return f.Kind + v + " " + excerpt(f.Text, other.Text)
}

// unknownWording is the problem of a result whose text_version is not
// this benchbook's: verify holds the text of the one version it renders
// to the letter, and text of any other (an older one, a later one, one
// that never existed, none at all) cannot be held to anything, so an edit
// of the commentary, a table or the findings would pass. It is a failure,
// whether the text reads as this version's or not; the numbers are
// checked all the same. The first difference from this version's wording
// is named.
func unknownWording(version int, text []string) string {
	what := fmt.Sprintf("text_version is %d", version)
	if version == 0 {
		what = "text_version is missing"
	}
	diff := "its text reads as this version's"
	if len(text) > 0 {
		diff = "first difference from this version's wording: " + text[0]
	}
	return fmt.Sprintf("%s, and this benchbook knows and holds to the letter only text version %d: the tables, commentary and findings cannot be checked against the numbers (verify it with the benchbook that wrote it; %s)",
		what, protocol.TextVersion, diff)
}

// schemaError is a schema error on one line, naming the schema but not its
// location (a path of the machine that checks it): "does not match
// result.schema.json: at '/variants': minItems: got 0, want 1".
func schemaError(err error) string {
	var re *schema.ResultError
	if !errors.As(err, &re) {
		return oneLine(err.Error())
	}
	msg := oneLine(re.Err.Error())
	if _, after, ok := strings.Cut(msg, "' - "); ok && strings.HasPrefix(msg, "jsonschema validation failed with '") {
		msg = after
	}
	return "does not match " + re.Schema + ": " + msg
}

// maxExact is 2^53: JavaScript numbers are doubles, so a front end that
// saves the notebook rounds an integer at or above it.
const maxExact = 1 << 53

// bigIntegers names every integer of a generic JSON value at or above 2^53
// in magnitude, by its path ("protocol.bootstrap_seed").
func bigIntegers(v any, path string) []string {
	switch x := v.(type) {
	case json.Number:
		s := strings.TrimPrefix(string(x), "-")
		if strings.ContainsAny(s, ".eE") {
			return nil
		}
		if n, err := strconv.ParseUint(s, 10, 64); err == nil && n < maxExact {
			return nil
		}
		return []string{fmt.Sprintf("%s is %s, at or above 2^53: a JavaScript front end that saves the notebook rounds it", path, x)}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var out []string
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			out = append(out, bigIntegers(x[k], p)...)
		}
		return out
	case []any:
		var out []string
		for i, e := range x {
			out = append(out, bigIntegers(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	return nil
}

// describe is "seed (c, -std=c11 -O2): 3 variants, 12 series, 3 comparisons, 390 samples".
func describe(r *protocol.Result) string {
	series := 0
	for i := range r.Variants {
		for _, name := range protocol.SeriesNames {
			if r.Variants[i].Get(name) != nil {
				series++
			}
		}
	}
	flags := strings.Join(r.Kernel.Flags, " ")
	if flags == "" {
		flags = "default flags"
	}
	return fmt.Sprintf("%s (%s, %s): %s, %s, %s, %s", r.Kernel.Name, r.Kernel.Lang, flags,
		ipynb.Plural(len(r.Variants), "variant"), seriesCount(series), ipynb.Plural(len(r.Comparisons), "comparison"),
		ipynb.Plural(ipynb.SampleCount(r), "sample"))
}

// seriesCount is "1 series", "12 series".
func seriesCount(n int) string { return fmt.Sprintf("%d series", n) }

// checkSummaries recomputes every summary from its samples, and puts the
// recomputed one in place so the later checks start from the samples.
func checkSummaries(r *protocol.Result) []string {
	var problems []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for _, name := range protocol.SeriesNames {
			s := v.Get(name)
			if s == nil {
				continue
			}
			if s.SHA256 != "" && s.SHA256 != protocol.SamplesDigest(s.SamplesNS) {
				problems = append(problems, fmt.Sprintf("variant %s series %s: samples_sha256 does not match the samples in their order: they were reordered or edited",
					v.Name, name))
			}
			got := stats.Summarize(s.SamplesNS)
			if field, ok := s.Summary.Equal(got, relTol); !ok {
				problems = append(problems, fmt.Sprintf("variant %s series %s: %s is %s, the samples give %s",
					v.Name, name, field, summaryField(s.Summary, field), summaryField(got, field)))
			}
			s.Summary = got
		}
	}
	return problems
}

// summaryField is one field of a summary as its JSON shows it.
func summaryField(s stats.Summary, field string) string {
	raw, _ := json.Marshal(s)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return string(m[field])
}

// checkComparisons recomputes the comparisons of every pair of variants.
func checkComparisons(r *protocol.Result) []string {
	want := protocol.Comparisons(r.Variants, r.Protocol, r.RoundBlock)
	used := make([]bool, len(want))
	var problems []string
	for _, c := range r.Comparisons {
		k := -1
		for i, w := range want {
			if !used[i] && w.Series == c.Series && (w.A == c.A && w.B == c.B || w.A == c.B && w.B == c.A) {
				k = i
				break
			}
		}
		name := fmt.Sprintf("comparison %s/%s (%s)", c.A, c.B, c.Series)
		if k < 0 {
			problems = append(problems, name+": the samples have no such pair")
			continue
		}
		used[k] = true
		problems = append(problems, compareComparison(name, c, want[k])...)
	}
	for i, w := range want {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("comparison %s/%s (%s): missing; the samples give ratio %s", w.A, w.B, w.Series, num(w.Ratio)))
		}
	}
	return problems
}

// compareComparison names the first field of a stored comparison that differs
// from the recomputed one.
func compareComparison(name string, c, w protocol.Comparison) []string {
	if c.A != w.A {
		return []string{fmt.Sprintf("%s: a is %s, the samples make %s the slower", name, c.A, w.A)}
	}
	if p := floatFields(name, []field{{"ratio", c.Ratio, w.Ratio}, {"ci_low", c.CILow, w.CILow},
		{"ci_high", c.CIHigh, w.CIHigh}, {"p_value", c.PValue, w.PValue}}); p != "" {
		return []string{p}
	}
	if c.Significant != w.Significant {
		return []string{fmt.Sprintf("%s: significant is %t, the samples give %t", name, c.Significant, w.Significant)}
	}
	if c.Paired != w.Paired {
		return []string{fmt.Sprintf("%s: paired is %t, the runner pairs by round (%t)", name, c.Paired, w.Paired)}
	}
	return compareStat(name, c.Stat, w.Stat)
}

// compareStat names the first figure of a rank verdict that differs.
func compareStat(name string, c, w protocol.Stat) []string {
	if p := floatFields(name, []field{{"shift", c.Shift, w.Shift}, {"p_adjusted", c.PAdjusted, w.PAdjusted},
		{"rho", c.Rho, w.Rho}, {"n_eff", c.NEff, w.NEff}}); p != "" {
		return []string{p}
	}
	if c.Method != w.Method || c.Undefined != w.Undefined {
		return []string{fmt.Sprintf("%s: method %q (%s), the samples give %q (%s)", name, c.Method, c.Undefined, w.Method, w.Undefined)}
	}
	return nil
}

// checkOrder checks the recorded position of every interleaved sample
// against the order the seed gives (harness.RoundOrder): the slots are the
// measured variants in order, then the A/A copy.
func checkOrder(r *protocol.Result) []string {
	if r.Protocol.OrderSeed == "" {
		return nil
	}
	seed, err := strconv.ParseUint(r.Protocol.OrderSeed, 10, 64)
	if err != nil {
		return []string{fmt.Sprintf("protocol.order_seed %q is not a whole number", r.Protocol.OrderSeed)}
	}
	var slots [][]int
	for _, v := range r.Variants {
		if s := v.Series.Interleaved; s != nil {
			slots = append(slots, s.Positions)
		}
	}
	if r.AA.Variant != "" {
		slots = append(slots, r.AA.Positions)
	}
	for slot, pos := range slots {
		for round, p := range pos {
			order := harness.RoundOrder(seed, round, len(slots))
			if p < 0 || p >= len(order) || order[p] != slot {
				return []string{fmt.Sprintf("interleaved slot %d, round %d: position %d is not where order seed %d puts it", slot, round+1, p, seed)}
			}
		}
	}
	return nil
}

// checkBaseline judges the same-run before/after again from the previous
// build's samples and this build's series.
func checkBaseline(r *protocol.Result) []string {
	bl := r.Baseline
	if bl == nil {
		return nil
	}
	again := *bl
	again.Variants = append([]protocol.BaselineVariant(nil), bl.Variants...)
	protocol.JudgeBaseline(r, &again)
	var problems []string
	for i, e := range bl.Variants {
		w := again.Variants[i]
		name := fmt.Sprintf("baseline %s (%s)", e.Name, e.Series)
		if r.Variant(e.Name) == nil || r.Variant(e.Name).Get(e.Series) == nil {
			problems = append(problems, name+": this build has no such series to compare with")
			continue
		}
		pv, pw := -1.0, -1.0
		if e.PValue != nil {
			pv = *e.PValue
		}
		if w.PValue != nil {
			pw = *w.PValue
		}
		if p := floatFields(name, []field{{"ratio", e.Ratio, w.Ratio}, {"ci_low", e.CILow, w.CILow},
			{"ci_high", e.CIHigh, w.CIHigh}, {"p_value", pv, pw}}); p != "" {
			problems = append(problems, p)
			continue
		}
		if e.Verdict != w.Verdict {
			problems = append(problems, fmt.Sprintf("%s: verdict is %q, the samples give %q", name, e.Verdict, w.Verdict))
			continue
		}
		problems = append(problems, compareStat(name, e.Stat, w.Stat)...)
	}
	return problems
}

// checkAA recomputes the A/A control from the variant's interleaved samples
// and the copy's samples_ns.
func checkAA(r *protocol.Result) []string {
	aa := r.AA
	if aa.Variant == "" {
		if aa.Ratio != 0 || len(aa.SamplesNS) > 0 {
			return []string{"A/A control: it has a ratio or samples but no variant"}
		}
		return nil
	}
	name := fmt.Sprintf("A/A control (%s)", aa.Variant)
	v := r.Variant(aa.Variant)
	if v == nil || v.Series.Interleaved == nil {
		return []string{name + ": the result has no interleaved series of that variant"}
	}
	if len(aa.SamplesNS) == 0 {
		return []string{name + ": aa.samples_ns is empty, so the control cannot be recomputed"}
	}
	w := protocol.AAControl(aa.Variant, v.Series.Interleaved.SamplesNS, aa.SamplesNS, r.Protocol, r.RoundBlock)
	if p := floatFields(name, []field{{"ratio", aa.Ratio, w.Ratio}, {"ci_low", aa.CILow, w.CILow},
		{"ci_high", aa.CIHigh, w.CIHigh}, {"p_value", aa.PValue, w.PValue}}); p != "" {
		return []string{p}
	}
	return compareStat(name, aa.Stat, w.Stat)
}

// checkChecksums judges every checksum again: ok must say whether got is
// want times passes, within the runner's tolerance. The test is made per
// pass (got/passes against want), which cannot overflow where want × passes
// would (want 1e308 over 2 passes is +Inf), and a value that is not finite
// is refused.
func checkChecksums(r *protocol.Result) []string {
	var problems []string
	for _, v := range r.Variants {
		c := v.Checksum
		if c == nil {
			continue
		}
		name := fmt.Sprintf("variant %s checksum", v.Name)
		if !finite(c.Got) || !finite(c.Want) || c.Passes < 0 {
			problems = append(problems, fmt.Sprintf("%s: got %s, want %s over %d passes: not finite numbers and a count", name, num(c.Got), num(c.Want), c.Passes))
			continue
		}
		ok := protocol.ChecksumOK(c.Got, c.Want, c.Passes)
		if ok != c.OK {
			problems = append(problems, fmt.Sprintf("%s: ok is %t, but got %s over %d passes is %s a pass against want %s, which gives %t",
				name, c.OK, num(c.Got), c.Passes, num(c.Got/float64(max(c.Passes, 1))), num(c.Want), ok))
		}
	}
	return problems
}

// finite says whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkPrediction judges a judged prediction again from the medians.
func checkPrediction(r *protocol.Result) []string {
	p := r.Prediction
	if p == nil || p.Observed == nil || p.Held == nil {
		return nil
	}
	ratio, ok := r.Ratio(p.A, p.B)
	if !ok {
		return []string{fmt.Sprintf("prediction %q: the samples give no ratio %s/%s", p.Text, p.A, p.B)}
	}
	again := *p
	again.Judge(ratio)
	if !agree(*p.Observed, *again.Observed) {
		return []string{fmt.Sprintf("prediction %q: observed is %s, the medians give %s", p.Text, num(*p.Observed), num(ratio))}
	}
	if *p.Held != *again.Held {
		return []string{fmt.Sprintf("prediction %q: held is %t, the medians say %t", p.Text, *p.Held, *again.Held)}
	}
	return nil
}

// field is one stored figure beside the recomputed one.
type field struct {
	name        string
	stored, got float64
}

// floatFields names the first field whose stored value is not the recomputed
// one, or returns "".
func floatFields(what string, fields []field) string {
	for _, f := range fields {
		if !agree(f.stored, f.got) {
			return fmt.Sprintf("%s: %s is %s, the samples give %s", what, f.name, num(f.stored), num(f.got))
		}
	}
	return ""
}

// agree says whether a and b agree within relTol.
func agree(a, b float64) bool {
	if a == b {
		return true
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	return math.Abs(a-b) <= relTol*max(math.Abs(a), math.Abs(b))
}

// num prints a float as JSON would.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// oneLine folds a multi-line message.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
