package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
)

// paragraph is how the commentary shows the sentences of one topic: a
// heading and a lead-in that carry no number, so that every figure in the
// commentary is one that bench.Sentences wrote.
type paragraph struct {
	topic, heading, lead string
}

// paragraphs are the commentary's paragraphs in order. The checksum
// sentences are not among them: Result shows them verbatim, above the
// commentary.
var paragraphs = []paragraph{
	{bench.TopicPartial, "Partial run.", ""},
	{bench.TopicPrediction, "Prediction.", ""},
	{bench.TopicBaseline, "Before / after, in one run.", ""},
	{bench.TopicDeadCode, "Dead code.", "The compiler may delete work whose value nothing reads; the assembly above shows what each timed region holds."},
	{bench.TopicComparison, "Live variants.", ""},
	{bench.TopicAutocorr, "Rounds that are not independent.", ""},
	{bench.TopicPlausibility, "Plausibility.", ""},
	{bench.TopicCounts, "Instruction counts.", ""},
	{bench.TopicLatency, "The worst operation.", "Each operation of a BENCH_OPS variant is timed on its own; the percentiles are over the operations of its in-process series."},
	{bench.TopicFirstTouch, "First touch.", "The cold pass is each process's first timed pass; what it meets depends on when it runs, before or after setup, and on how this OS maps memory on first touch, which its page faults and setup's say."},
	{bench.TopicResolution, "What one run can resolve.", ""},
	{bench.TopicLayout, "Layout.", ""},
	{bench.TopicGaps, "Interruptions.", ""},
	{bench.TopicClock, "The clock during the run.", ""},
	{bench.TopicSpread, "Spread.", ""},
	{bench.TopicBatch, "Short passes.", ""},
	{bench.TopicLoad, "Load.", ""},
}

// Commentary explains a result in Markdown: one short paragraph per topic,
// made of the sentences bench.Sentences writes (the findings among them),
// so that two results give two different texts and no number is written
// twice by two rules.
func Commentary(r *bench.Result) string {
	byTopic := map[string][]string{}
	names := map[string]bool{}
	for _, v := range r.Variants {
		names[v.Name] = true
	}
	for _, s := range bench.Sentences(r) {
		byTopic[s.Topic] = append(byTopic[s.Topic], sentence(s.Text, names))
	}
	var paras []string
	for _, p := range paragraphs {
		ss := byTopic[p.topic]
		if len(ss) == 0 {
			continue
		}
		parts := []string{"**" + p.heading + "**"}
		if p.lead != "" {
			parts = append(parts, p.lead)
		}
		paras = append(paras, strings.Join(append(parts, ss...), " "))
	}
	return strings.Join(paras, "\n\n")
}

// sentence makes a sentence of a text: a capital first letter, unless the
// text starts with a variant name, which stays as it is spelled, and a
// final period.
func sentence(text string, names map[string]bool) string {
	first := strings.FieldsFunc(text, func(c rune) bool { return c == ' ' || c == ',' || c == ':' || c == ';' || c == '\'' })
	if len(first) > 0 && !names[first[0]] {
		if c, n := utf8.DecodeRuneInString(text); unicode.IsLower(c) {
			text = string(unicode.ToUpper(c)) + text[n:]
		}
	}
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	return text
}

// CommentaryBundle is the commentary as a display bundle.
func CommentaryBundle(r *bench.Result) map[string]any {
	md := Commentary(r)
	return map[string]any{display.MIMEMarkdown: md, display.MIMEText: md}
}

// ns writes a duration as every sentence does (compare.go uses it).
func ns(x float64) string { return bench.FormatNS(x) }
