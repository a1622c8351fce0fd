package report

import (
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
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
	{findings.TopicPartial, "Partial run.", ""},
	{findings.TopicPrediction, "Prediction.", ""},
	{findings.TopicBaseline, "Before / after, in one run.", ""},
	{findings.TopicDeadCode, "Dead code.", "The compiler may delete work whose value nothing reads; the assembly above shows what each timed region holds."},
	{findings.TopicComparison, "Live variants.", ""},
	{findings.TopicPlausibility, "Plausibility.", ""},
	{findings.TopicCounts, "Instruction counts.", ""},
	{findings.TopicLatency, "The worst operation.", "Each operation of a BENCH_OPS variant is timed on its own; the percentiles are over the operations of its in-process series."},
	{findings.TopicFirstTouch, "First touch.", "The cold pass is each process's first timed pass; what it meets depends on when it runs, before or after setup, and on how this OS maps memory on first touch, which its page faults and setup's say."},
	{findings.TopicResolution, "What one run can resolve.", ""},
	{findings.TopicLayout, "Layout.", ""},
	{findings.TopicControl, "Controls.", "A control runs the kernel under one changed condition beside itself, in the same run; a mechanism is named only from the control that isolates it."},
	{findings.TopicGaps, "Interruptions.", ""},
	{findings.TopicClock, "The clock during the run.", ""},
	{findings.TopicSpread, "Spread.", ""},
	{findings.TopicBatch, "Short passes.", ""},
	{findings.TopicLoad, "Load.", ""},
}

// Commentary explains a result in Markdown: one short paragraph per topic,
// made of the sentences bench.Sentences writes (the findings among them),
// so that two results give two different texts and no number is written
// twice by two rules.
func Commentary(r *result.Result) string {
	var paras []string
	for _, p := range commentaryParagraphs(r) {
		paras = append(paras, strings.Join(append([]string{"**" + p.heading + "**"}, p.sentences...), " "))
	}
	return strings.Join(paras, "\n\n")
}

// shownParagraph is one paragraph of a result's commentary: its heading,
// its lead-in (if any) and its sentences, in order.
type shownParagraph struct {
	heading   string
	sentences []string // the lead-in first, when the paragraph has one
}

func commentaryParagraphs(r *result.Result) []shownParagraph {
	byTopic := map[string][]string{}
	names := map[string]bool{}
	for _, v := range r.Variants {
		names[v.Name] = true
	}
	for _, s := range findings.Sentences(r) {
		byTopic[s.Topic] = append(byTopic[s.Topic], sentence(s.Text, names))
	}
	var out []shownParagraph
	for _, p := range paragraphs {
		ss := byTopic[p.topic]
		if len(ss) == 0 {
			continue
		}
		sp := shownParagraph{heading: p.heading}
		if p.lead != "" {
			sp.sentences = append(sp.sentences, p.lead)
		}
		sp.sentences = append(sp.sentences, ss...)
		out = append(out, sp)
	}
	return out
}

// SummaryWords bounds the commentary's visible summary.
const SummaryWords = 120

// CommentarySummary is what the commentary covers in at most SummaryWords
// words: per paragraph its heading and its first sentence's first clause
// (up to the first semicolon), in order, until the words run out; the
// paragraphs left out are named by their headings when they fit, else
// counted.
func CommentarySummary(r *result.Result) string {
	paras := commentaryParagraphs(r)
	var parts []string
	words := 0
	for i, p := range paras {
		first := p.sentences[0]
		if len(p.sentences) > 1 && isLead(p) {
			first = p.sentences[1]
		}
		clause, _, cut := strings.Cut(first, "; ")
		if cut {
			clause += " (...)."
		}
		part := p.heading + " " + clause
		if n := len(strings.Fields(part)); words+n <= SummaryWords {
			parts, words = append(parts, part), words+n
			continue
		}
		var rest []string
		for _, q := range paras[i:] {
			rest = append(rest, strings.TrimSuffix(q.heading, "."))
		}
		more := "Also: " + strings.Join(rest, ", ") + "."
		if words+len(strings.Fields(more)) > SummaryWords {
			more = fmt.Sprintf("And %d more paragraphs.", len(paras)-i)
		}
		return strings.Join(append(parts, more), " ")
	}
	return strings.Join(parts, " ")
}

// isLead says whether a paragraph's first sentence is its lead-in.
func isLead(p shownParagraph) bool {
	for _, q := range paragraphs {
		if q.heading == p.heading {
			return q.lead != "" && q.lead == p.sentences[0]
		}
	}
	return false
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

// CommentaryBundle is the commentary as a display bundle: in HTML its
// summary (CommentarySummary) visible and the paragraphs in a <details>
// below it (kept by the classic Notebook and nbconvert's HTML); in text
// and Markdown the summary, then the paragraphs.
func CommentaryBundle(r *result.Result) map[string]any {
	sum, md := CommentarySummary(r), Commentary(r)
	var h strings.Builder
	h.WriteString(`<div class="benchbook-commentary" style="font-family:sans-serif;font-size:13px">`)
	fmt.Fprintf(&h, "<details><summary><b>Commentary.</b> %s</summary>", html.EscapeString(sum))
	for _, p := range commentaryParagraphs(r) {
		fmt.Fprintf(&h, "<p><b>%s</b> %s</p>", html.EscapeString(p.heading), html.EscapeString(strings.Join(p.sentences, " ")))
	}
	h.WriteString("</details></div>")
	text := "Commentary. " + sum + "\n\n" + md
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEMarkdown: text, display.MIMEText: text}
}

// ns writes a duration as every sentence does (compare.go uses it).
func ns(x float64) string { return numtext.FormatNS(x) }
